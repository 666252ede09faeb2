import { plural } from "./cluster-text.ts";
import { ENGINE_NAMES, type Elsewhere } from "./contracts.ts";
import { matchIssues } from "./delta.ts";
import type { Issue } from "./issues.ts";
import { checkIssue } from "./response.ts";

// tsc checks whole programs even when check_files names one file: an edit that renames, deletes or retypes an export
// breaks its importers, which lie outside the named files. Those errors are compared with the whole-program tsc
// issues of the last check_project (matched as compare does), so a check of the edited file is never a bare "clean".

/** How many of the errors elsewhere a response lists. */
export const ELSEWHERE_LISTED = 5;

/** tsc errors outside a check's files: new since the known set, or (nothing known) present without being blamed. */
export interface ElsewhereFacts {
  introduced: Issue[];
  unattributed: Issue[];
  /** Every tsc error outside the files (a later after-edit check tells from it which earlier ones are fixed). */
  outside: Issue[];
  /**
   * What `outside` answers for, file by file (its absence of an error there means the error is gone): tsc's errors in
   * `tscFiles`, the files of the programs this check ran (warm programs name them; a command-line run names none, and
   * a check of some files runs only the programs holding them), ESLint's in `lintedFiles` (the files importing the
   * named ones, linted with its typed rules). `programs`: tsc's programs this check ran (undefined: not known, a
   * command-line run). A file two programs hold may carry an error of the one a check did not run, so its silence
   * there tells the error gone only when every program of the check that reported it ran again (see answersFor).
   */
  covers: Covers;
}

/** See ElsewhereFacts.covers. */
export interface Covers {
  tscFiles: ReadonlySet<string>;
  lintedFiles: readonly string[];
  programs?: ReadonlySet<string>;
}

/** Nothing answered for: no error elsewhere can be told gone. */
export const COVERS_NOTHING: Covers = { tscFiles: new Set(), lintedFiles: [] };

/**
 * Whether `facts` answers for an error of this engine in this file (its absence there means it is gone): a tsc error
 * reported by the programs `from` (undefined: not known) only when this check ran every one of them and read the file.
 */
export function answersFor(facts: ElsewhereFacts, issue: { engine: string; file: string }, from?: ReadonlySet<string>): boolean {
  if (issue.engine === "tsc") {
    const ran = facts.covers.programs;
    return facts.covers.tscFiles.has(issue.file) && from !== undefined && ran !== undefined && [...from].every((program) => ran.has(program));
  }
  return issue.engine === "eslint" && facts.covers.lintedFiles.includes(issue.file);
}

/**
 * The errors of `outside` (tsc issues outside the checked files) that `known` (the last check_project's tsc issues,
 * null when none is known yet) does not have: introduced; with nothing known, every error is unattributed.
 */
export function errorsElsewhere(known: readonly Issue[] | null, outside: readonly Issue[], covers = COVERS_NOTHING): ElsewhereFacts {
  const errors = outside.filter((issue) => issue.severity === "error");
  if (!known) return { introduced: [], unattributed: errors, outside: errors, covers };
  const { usedAfter } = matchIssues(known, errors);
  return { introduced: errors.filter((_, index) => !usedAfter.has(index)), unattributed: [], outside: errors, covers };
}

/** The response's `elsewhere` field, or undefined when nothing is to be said (then the check may be clean). */
export function elsewhereField(facts: ElsewhereFacts | null): Elsewhere | undefined {
  if (!facts) return undefined;
  const { introduced, unattributed } = facts;
  const listed = introduced.length ? introduced : unattributed;
  if (!listed.length) return undefined;
  const files = [...new Set(listed.map((issue) => issue.file))];
  const where = `${plural(files.length, "other file")} (${files.slice(0, 3).join(", ")}${files.length > 3 ? ", …" : ""})`;
  // tsc's errors are in these files' programs; ESLint's in the files importing them, linted with its typed rules.
  const counted = [...new Set(listed.map((issue) => issue.engine))].sort((a, b) => ENGINE_NAMES.indexOf(a) - ENGINE_NAMES.indexOf(b));
  const engines = counted.join(" and ");
  const nextStep = introduced.length
    ? `This change (or another since the last check_project, else the first check_files) broke ${where}: ${plural(introduced.length, `${engines} error`)} there that were not there before. Fix them (or undo the change), then run check_project or check_files on those files.`
    : `${engines} ${engines.includes(" and ") ? "report" : "reports"} ${plural(unattributed.length, "error")} in ${where} of these files' programs or importers, and no earlier check tells whether this change caused them: run check_project to see them all (later checks compare with this one).`;
  return {
    introduced: introduced.length,
    ...(introduced.length ? {} : { unattributed: unattributed.length }),
    engines: counted,
    issues: listed.slice(0, ELSEWHERE_LISTED).map(checkIssue),
    nextStep,
  };
}
