import { errorsElsewhere, type ElsewhereFacts } from "../../core/elsewhere.ts";
import { normalizeIssues, type Issue } from "../../core/issues.ts";
import { isWithin } from "../../core/paths.ts";
import { isConfigDiagnosticFile } from "../../engines/tsc.ts";
import type { EngineReport } from "../job/engine-job.ts";

/**
 * The whole-program tsc issues of the latest check_project of the whole project (tsc reports every file of the programs
 * it checks, whatever paths were asked), else of the first check: what a check of some paths compares the errors
 * outside them with. A check of some paths never replaces it — a check_files, or a check_project of a directory or a
 * file (`signalint-mcp check src/a.ts`), which shows only its paths' issues — so an error an edit caused elsewhere is
 * reported by every such check until it is fixed or a check of the whole project has shown it. Shared by every
 * session of the service: a file's errors are the project's.
 */
export class TscKnowledge {
  private issues: Issue[] | null = null;

  /**
   * For a check of some paths: tsc's errors outside them that the known set lacks (null when tsc did not run cleanly,
   * so nothing is known). A check_project of the whole project whose tsc ran (status ok) then becomes the known set,
   * and so does any check when nothing is known yet (a check_files' errors elsewhere were reported as unattributed; a
   * check_project of some paths, which never reported errors outside them, reports none then).
   */
  update(tsc: EngineReport | undefined, scope: Scope, hash: (text: string) => string, toRelative: (path: string) => string | null): ElsewhereFacts | null {
    // A pending answer (the named files only) knows nothing of the files elsewhere yet.
    if (tsc?.status.status !== "ok" || tsc.pending) return null;
    const inProject = tsc.issues.filter((issue) => !scope.ignored(issue.file));
    const inside = (file: string) => scope.paths.some((path) => isWithin(file, path));
    // Program-wide (config) diagnostics are in the check's own issues whatever the paths.
    const outside = inProject.filter((issue) => !issue.programWide && !inside(issue.file));
    const whole = !scope.incremental && scope.paths.includes(".");
    const known = this.issues;
    const programs = tsc.reuse?.programs ? new Set(tsc.reuse.programs) : undefined;
    if (whole || !known) this.issues = normalizeIssues(inProject, hash);
    if (whole || (!scope.incremental && !known)) return null;
    // The files its programs held (warm programs name every file they read, and say which programs ran): only there,
    // and only for an error of programs that all ran again, can an error be told gone (answersFor) — a file two
    // programs hold may carry an error of the one this check did not run (Zod's integration fixtures, held by the root
    // program too). Not their configs: a config's diagnostics are program-wide, never among the errors elsewhere.
    const read = (tsc.reuse?.reads ?? []).flatMap((path) => toRelative(path) ?? []);
    const tscFiles = new Set(read.filter((file) => !isConfigDiagnosticFile(file)));
    const covers = { tscFiles, lintedFiles: [], ...(programs ? { programs } : {}) };
    return errorsElsewhere(known, normalizeIssues(outside, hash), covers);
  }
}

/** Client environments whose ESLint knowledge LintKnowledge keeps at once. */
export const MAX_ENVIRONMENTS = 8;

/**
 * The ESLint issues known of each file, for the files an edit's check lints because they import the named ones (see
 * LintedDependents): a check_project of the whole project whose ESLint ran (status ok) replaces them all; a file no
 * such check showed is known from the first edit's check that linted it with its typed rules, as an importer (its
 * errors then unattributed, as TscKnowledge's when nothing is known) or as a named file. A check of some paths never replaces what is known of a file. Kept per environment (`env`,
 * its fingerprint): a JavaScript config may read any variable, so one daemon client's answers are never another's
 * known set (the lint cache keeps them apart the same way).
 */
export class LintKnowledge {
  /** In the order last used: the oldest environment's known set goes first when more than MAX_ENVIRONMENTS were seen. */
  private readonly byEnvironment = new Map<string, { known: Map<string, Issue[]>; whole: boolean }>();

  /** For an edit's check: ESLint's errors in the files it linted besides the named ones that the known set lacks. */
  update(eslint: EngineReport | undefined, scope: Scope, hash: (text: string) => string, env: string): ElsewhereFacts | null {
    if (eslint?.status.status !== "ok") return null;
    const state = this.byEnvironment.get(env) ?? { known: new Map<string, Issue[]>(), whole: false };
    this.byEnvironment.delete(env);
    this.byEnvironment.set(env, state);
    // A daemon lives for hours and each shell with other variables is another environment: only the latest are kept
    // (a forgotten one is known again from its next whole check; until then its importers' errors are unattributed).
    for (const oldest of this.byEnvironment.keys()) {
      if (this.byEnvironment.size <= MAX_ENVIRONMENTS) break;
      this.byEnvironment.delete(oldest);
    }
    const { known: knownByFile } = state;
    if (!scope.incremental && scope.paths.includes(".")) {
      knownByFile.clear();
      state.whole = true;
      for (const issue of normalizeIssues(eslint.issues, hash)) knownByFile.set(issue.file, [...(knownByFile.get(issue.file) ?? []), issue]);
      return null;
    }
    if (!scope.incremental) return null;
    const whole = state.whole;
    const isKnown = (file: string) => whole || knownByFile.has(file);
    // The named files ESLint linted with their importers, linted here for the first time: known from this check (a later
    // edit whose check lints one as an importer compares with it), as an importer linted first is.
    const firstLinted = (eslint.dependents?.named ?? []).filter((file) => !scope.ignored(file) && !isKnown(file));
    if (firstLinted.length) {
      const named = new Set(firstLinted);
      const own = normalizeIssues(
        eslint.issues.filter((issue) => named.has(issue.file)),
        hash,
      );
      for (const file of firstLinted)
        knownByFile.set(
          file,
          own.filter((issue) => issue.file === file),
        );
    }
    const linted = (eslint.dependents?.files ?? []).filter((file) => !scope.ignored(file));
    if (!linted.length) return null;
    const files = new Set(linted);
    const outside = normalizeIssues(
      eslint.issues.filter((issue) => files.has(issue.file)),
      hash,
    );
    const known = linted.filter(isKnown).flatMap((file) => knownByFile.get(file) ?? []);
    const facts = errorsElsewhere(
      known,
      outside.filter((issue) => isKnown(issue.file)),
    );
    const unattributed = errorsElsewhere(
      null,
      outside.filter((issue) => !isKnown(issue.file)),
    ).unattributed;
    for (const file of linted.filter((entry) => !isKnown(entry)))
      knownByFile.set(
        file,
        outside.filter((issue) => issue.file === file),
      );
    return { ...facts, unattributed, outside: [...facts.outside, ...unattributed], covers: { tscFiles: new Set(), lintedFiles: linted } };
  }
}

/** Both engines' errors elsewhere as one (null when neither knows anything): what `outside` covers, said in `covers`. */
export function mergeElsewhere(tsc: ElsewhereFacts | null, eslint: ElsewhereFacts | null): ElsewhereFacts | null {
  if (!eslint) return tsc;
  if (!tsc) return eslint;
  return {
    introduced: [...tsc.introduced, ...eslint.introduced],
    unattributed: [...tsc.unattributed, ...eslint.unattributed],
    outside: [...tsc.outside, ...eslint.outside],
    covers: { ...tsc.covers, lintedFiles: eslint.covers.lintedFiles },
  };
}

/** What of a check decides which tsc issues lie elsewhere. */
export interface Scope {
  paths: readonly string[];
  ignored: (path: string) => boolean;
  incremental: boolean;
}
