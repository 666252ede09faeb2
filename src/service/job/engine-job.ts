import type { EngineStatus, Pending } from "../../core/contracts.ts";
import type { RawIssue } from "../../core/issues.ts";
import type { NodeCommand, ParseOutcome, PathMapper } from "../../engines/types.ts";
import type { Runtime } from "../../runtime/types.ts";
import type { CheckEvent } from "./check-events.ts";
import type { CheckDependents } from "./dependents.ts";

/** Cache use of one engine in one check: inputs reused vs. re-examined (tsc also says how). */
export interface EngineCache {
  hits: number;
  misses: number;
  mode?: string;
}

/** Files under the checked paths an engine left unchecked, with why (absolute paths; the response counts them). */
export interface NotCheckedFiles {
  reason: string;
  files: string[];
}

/**
 * Files the project's own lint runs rules on that this engine's run did not (a script's `oxlint --type-aware` without
 * oxlint-tsgolint): `linter` names them in the check's next step. The check is never clean: what was not run may find more.
 */
export interface Unlinted extends NotCheckedFiles {
  linter: string;
}

/** tsc's coverage note for TypeScript files no program the project checks includes (oxlint's `--type-check` splits it). */
export const NO_PROGRAM = "not type-checked: no tsconfig the project checks includes them";

/** What one engine contributed to a check. */
export interface EngineReport {
  status: EngineStatus;
  issues: RawIssue[];
  durationMs: number;
  cache?: EngineCache;
  /** Coverage notes; undefined when the engine did not work out coverage (it did not run). */
  notChecked?: NotCheckedFiles[];
  /** See Unlinted. */
  unlinted?: Unlinted;
  /** See Reuse. */
  reuse?: Reuse;
  /** tsc only: programs that answered the named files and are still re-checking the rest (see tsc/named-first.ts). */
  pending?: Pending;
  /** ESLint with typed rules in an edit's check: the files importing the named ones it linted too (see LintedDependents). */
  dependents?: LintedDependents;
}

/**
 * The files that import a check's named files, which ESLint's typed rules lint too (their issues are in the report's,
 * outside the check's paths): `named`, the check's files this run linted with them (root-relative); `files` linted
 * (root-relative), `more` not linted (over typedLintDependents); `unknown`: why the importers of `unknownFor` (named
 * files) cannot be known (no warm program tells, or none holds them), which `files` then do not cover.
 */
export interface LintedDependents {
  named: string[];
  files: string[];
  more: string[];
  unknown?: string;
  unknownFor?: string[];
}

/**
 * Whether a later check may answer with this report while nothing it depends on changed (a quiet check): only when
 * its inputs are the project tree (which the file watch vouches for), the engine's identity, and `reads` — files
 * outside what the watch sees (node_modules, outside the root) that the engine read (tsc's warm programs say which).
 */
export interface Reuse {
  reads: string[];
  /**
   * tsc only: the programs that ran (`tool:config`, the config as the runner names it), whose files `reads` names — what
   * a later check compares to tell whether every program of an earlier answer ran again (see TscKnowledge).
   */
  programs?: string[];
}

/** Inputs every engine run has; the lint and tsc rooms extend it with what only they need (LintJob, TscJob). */
export interface EngineJob {
  runtime: Runtime;
  root: string;
  stateDir: string;
  /** Per-project directory outside the project tree for generated files (tsc configs, declarations, build info). */
  cacheDir: string;
  /** True when signalint.config.json enables this engine explicitly (then a missing engine is an error). */
  explicit: boolean;
  /** Project-relative paths matched by the config's `ignore`. */
  ignored: (path: string) => boolean;
  /** Normalized project-relative paths ("." for the whole project). */
  paths: string[];
  timeoutMs: number;
  node: NodeCommand | null;
  toRelative: PathMapper;
  /** The check's cancellation: aborting kills the engine's process tree. */
  signal?: AbortSignal;
  onEvent?: (event: CheckEvent) => void;
  /** An edit's check (check_files): what tsc's programs say of the files importing the named ones (see CheckDependents). */
  dependents?: CheckDependents | null;
}

/** A runner's result: issues (with cache use), a parse failure, or a status such as "disabled". */
export type RunnerOutcome =
  | (ParseOutcome & {
      cache?: EngineCache;
      message?: string;
      notChecked?: NotCheckedFiles[];
      unlinted?: Unlinted;
      reuse?: Reuse;
      pending?: Pending;
      dependents?: LintedDependents;
    })
  | EngineStatus;
