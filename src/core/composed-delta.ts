import type { Delta, NotCompared } from "./contracts.ts";
import { compareChecks, type CompareSide } from "./delta.ts";
import { isWithin } from "./paths.ts";

// after_edit_check over several files that earlier checks covered separately: each file is compared with the newest
// earlier check that covered it, and the deltas are summed; a file no earlier check covered is named, not compared.

/** One earlier check and the paths of the current check it is the newest to cover. */
export interface BaselinePart {
  baseline: CompareSide;
  paths: readonly string[];
}

/** A side narrowed to some paths: its issues and unchecked files there only. */
function narrowed(side: CompareSide, paths: readonly string[]): CompareSide {
  const inside = (file: string) => paths.some((path) => isWithin(file, path));
  return {
    ...side,
    scope: paths,
    issues: side.issues.filter((issue) => inside(issue.file)),
    ...(side.unchecked ? { unchecked: side.unchecked.map(({ engine, files }) => ({ engine, files: files.filter(inside) })) } : {}),
  };
}

/**
 * The delta of a check against several baselines, each for the paths it is the newest to cover: the sum of each part's
 * comparison (introduced, resolved, unchanged, net counts), their notCompared notes once each, and an
 * `outside_baseline` note for the paths no part covers.
 */
export function composeDeltas(parts: readonly BaselinePart[], current: CompareSide, uncovered: readonly string[]): Delta {
  const deltas = parts.map(({ baseline, paths }) => compareChecks(narrowed(baseline, paths), narrowed(current, paths)));
  const notes = new Map<string, NotCompared>();
  for (const note of deltas.flatMap((delta) => delta.notCompared ?? [])) notes.set(JSON.stringify(note), note);
  if (uncovered.length)
    notes.set("outside", {
      reason: "outside_baseline",
      paths: [...uncovered],
      message: `No earlier check covered ${uncovered.join(", ")}: issues there are not compared`,
    });
  const notCompared = [...notes.values()];
  return {
    introduced: deltas.flatMap((delta) => delta.introduced),
    resolved: deltas.flatMap((delta) => delta.resolved),
    unchangedCount: deltas.reduce((sum, delta) => sum + delta.unchangedCount, 0),
    netErrorDelta: deltas.reduce((sum, delta) => sum + delta.netErrorDelta, 0),
    netWarningDelta: deltas.reduce((sum, delta) => sum + delta.netWarningDelta, 0),
    ...(notCompared.length ? { notCompared } : {}),
  };
}
