import type { NotChecked } from "../../core/contracts.ts";
import type { LintedDependents } from "../job/engine-job.ts";
import { spreadSample } from "./coverage.ts";

// An edit's check with ESLint's typed rules lints the files that import the named ones (see CheckDependents): what it
// could not lint of them is said, never left out — over the budget, or not known at all (no warm program to tell).

/**
 * The coverage notes of an edit's check about the files importing its named ones that ESLint did not lint: the named
 * files whose importers are not known (counted and sampled), and the importers over the budget.
 */
export function dependentsNotes(dependents: LintedDependents | undefined, budget: number): NotChecked[] {
  if (!dependents) return [];
  const notes: NotChecked[] = [];
  const unknownFor = dependents.unknownFor ?? [];
  if (dependents.unknown && unknownFor.length)
    notes.push({
      reason: `the files that import these may have new findings of ESLint's typed rules (they read these files' types), but which files import them is not known: ${dependents.unknown}; run check_project to lint them`,
      count: unknownFor.length,
      sample: spreadSample(unknownFor, 5),
    });
  const { more, files } = dependents;
  if (more.length)
    notes.push({
      reason: `${more.length === 1 ? "1 more file" : `${more.length} more files`} may be affected: ${more.length === 1 ? "it imports" : "they import"} the checked files, and ESLint's typed rules linted only the nearest ${files.length} (typedLintDependents: ${budget}); run check_project`,
      count: more.length,
      sample: spreadSample(more, 5),
    });
  return notes;
}
