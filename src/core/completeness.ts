import type { CheckResponse, Elsewhere, Engines, NotCompared, Pending } from "./contracts.ts";

// The one rule of a clean check: every file it was about was checked by everything the project checks it with.
// Coverage (service/check/coverage.ts) gathers which files nothing type-checked; these two functions decide what that
// means for the answer, for every entry point (check_project, check_files, after_edit_check, apply's post-check, the
// CLI and the hook all read the status buildCheckResponse takes from checkStatus).

/**
 * Files the project type-checks with a framework's checker (svelte-check, vue-tsc, astro check): one left unchecked is
 * never a clean check, named or found. MDX is not among them: no checker a project runs type-checks it, so an .mdx a
 * walk finds (a documentation site's pages) is a note, as it is to the project's own checks; a named one is a gap.
 */
const FRAMEWORK_CHECKED = /\.(?:svelte|vue|astro)$/;

/** What coverage found about the files a check was about (root-relative paths). */
export interface CoverageGaps {
  /** The files the check was about that a type-checker applies to: TypeScript sources and framework files. */
  typed: readonly string[];
  /** Those nothing type-checked (the type-check coverage notes). */
  untyped: ReadonlySet<string>;
  /** The files the request named by path (not found under a named directory). */
  named: ReadonlySet<string>;
}

/**
 * The files that make a check incomplete: each unchecked framework file (.svelte, .vue, .astro), each unchecked
 * file the request named, and, when nothing was type-checked at all, every unchecked file. A TypeScript file that a
 * walk of a directory found outside every program the project checks is the project's own blind spot too: a note, not
 * a gap.
 */
export function incompleteFiles(gaps: CoverageGaps): string[] {
  const unchecked = gaps.typed.filter((file) => gaps.untyped.has(file));
  const nothingTyped = gaps.typed.length > 0 && unchecked.length === gaps.typed.length;
  return unchecked.filter((file) => nothingTyped || FRAMEWORK_CHECKED.test(file) || gaps.named.has(file)).sort();
}

/** What a check's status is decided from. */
export interface StatusFacts {
  engines: Engines;
  issueCount: number;
  elsewhere?: Elsewhere;
  /** incompleteFiles of the check. */
  incomplete?: readonly string[];
  /** The project's own linters that could not run on the checked files. */
  unlinted?: readonly string[];
  /** tsc programs still re-checking the rest of what the change may affect (the named files' answer is complete). */
  pending?: Pending;
}

/**
 * A check's status: `error` when an engine failed, none ran, a file it was about went unchecked, or the project's own
 * linter (xo, a package's own ESLint, …) could not run on it — whatever else was found, since what was not checked may
 * hold more; `issues_found` when there are issues (here or, after an edit, elsewhere); `pending` when there are none
 * yet but tsc has not finished re-checking the files the change may affect outside the named ones; else `clean`.
 */
export function checkStatus(facts: StatusFacts): CheckResponse["status"] {
  const statuses = Object.values(facts.engines);
  const failed = statuses.some((status) => status.status === "error") || !statuses.some((status) => status.status === "ok");
  if (failed || facts.incomplete?.length || facts.unlinted?.length) return "error";
  if (facts.issueCount > 0 || facts.elsewhere) return "issues_found";
  return facts.pending ? "pending" : "clean";
}

/** How many named unchecked files a next step lists by name. */
const NAMED = 5;

/** The next step's words for an incomplete check: which files went unchecked (notChecked says why). */
export function incompleteNote(files: readonly string[]): string {
  const shown = files.slice(0, NAMED).join(", ");
  const more = files.length > NAMED ? ` and ${files.length - NAMED} more` : "";
  return `Not clean: ${shown}${more} ${files.length === 1 ? "was" : "were"} not checked by every checker the project uses (notChecked says why).`;
}

/** The pending field's next step: how to get the complete answer. */
export function pendingNote(programs: number, files: number): string {
  const what = `${programs === 1 ? "1 tsc program" : `${programs} tsc programs`} (${files === 1 ? "1 more file" : `${files} more files`} this change may affect)`;
  return `The named files' answer is complete; ${what} ${programs === 1 ? "is" : "are"} still being re-checked. Call the same tool again with the same files for the complete answer: the re-check goes on meanwhile and is never started twice.`;
}

/** A pending check's delta covers the named files only: the note that says the rest is not compared yet. */
export function pendingNotCompared(pending: Pending): NotCompared {
  const files = pending.files === 1 ? "1 more file" : `${pending.files} more files`;
  return {
    reason: "not_checked",
    engine: "tsc",
    message: `tsc is still re-checking ${files} this change may affect (pending): their issues are not compared yet; call again with the same files for the complete delta`,
  };
}
