import type { EngineName, EngineStatus } from "../core/contracts.ts";
import type { RawIssue } from "../core/issues.ts";
import type { SpawnResult } from "../runtime/types.ts";

/** A file the engine reported it could not check (unreadable, not UTF-8): the run is partial. */
export interface FileFailure {
  /** Project-relative when inside the root, else as the engine printed it. */
  file: string;
  reason: string;
}

/**
 * The outcome of parsing one engine run: issues (with the files the engine could not check, if any), or a failure
 * that becomes that engine's `error` status.
 */
export type ParseOutcome =
  /** `linted`: every file the engine reports it linted, findings or not (root-relative), where its output says so (ESLint's). */
  { ok: true; issues: RawIssue[]; failures?: FileFailure[]; linted?: string[] } | { ok: false; code: NonNullable<EngineStatus["code"]>; message: string };

/** A program that runs JS files: `command ...args script.js`. */
export interface NodeCommand {
  command: string;
  args: string[];
}

/** Where an engine was found and how to start it. */
export interface ResolvedEngine {
  engine: EngineName;
  /** Program to spawn (node for a JS entry, the binary itself otherwise). */
  command: string;
  /** Arguments that precede the engine's own (the JS entry path when run through node). */
  prefixArgs: string[];
  /** The engine's entry (script or binary) as resolved. */
  path: string;
  version: string | null;
  /** The installed engine package the entry belongs to (null for a stand-in outside any such package). */
  packageDir: string | null;
  /** "package bin": the engine package found by package resolution (its `bin` entry); "PATH": no package installed. */
  source: "package bin" | "PATH";
  /** oxlint only: the oxlint-tsgolint executable `--type-aware` runs (null when that package is not installed). */
  typeAware?: { path: string; version: string | null } | null;
}

/** A file-local linter's driving: which paths it takes, its argv and its strict output parser. */
export interface LinterDriver {
  /** The paths it is given (files and directories). */
  accepts: (path: string) => boolean;
  /**
   * The files under a directory whose content a directory run's cached answer rests on (default: `accepts`): a
   * linter that decides itself what it lints (flat-config ESLint) lints more than the paths a check names for it.
   */
  tracks?: (path: string) => boolean;
  /** The tracked files it lints without a config naming them (ESLint: the JS/TS family); default: every tracked file. */
  lintsUnasked?: (path: string) => boolean;
  /** Its argv for these paths, for the version that runs (`version`: the resolved package's; null when unknown). */
  argsFor: (paths: readonly string[], version: string | null) => string[];
  parse: (result: SpawnResult, toRelative: PathMapper) => ParseOutcome;
  /**
   * Config files it reads, looked for in every directory from a linted file up to the root (nested configs) and above
   * it: an edit of one changes the lint cache's keys (service/freshness/config-inputs.ts).
   */
  configFiles: readonly string[];
  /**
   * The arguments that keep it out of the state directory (`state`: root-relative, POSIX) when that lies inside the
   * root, placed before the `--` preceding the paths (last when its argv has no `--`); null: it has no such switch
   * (say why in the adapter).
   */
  ignoreArgs: ((state: string) => string[]) | null;
  /** Variables its runs add to the caller's environment (`cacheDir`: the project's, outside the tree), if any. */
  env?: (cacheDir: string) => Record<string, string>;
  /**
   * Its output lists every file it linted (`linted`): a file of a directory it was given and left out was ignored
   * there — which says nothing of that file named on its own (ESLint's legacy configs can ignore a directory and lint
   * a file below it named on the command line).
   */
  listsLinted?: true;
}

/** Everything Signalint knows of one engine (one entry of engines/registry.ts per engine). */
export interface EngineAdapter {
  /** npm package and the executable its `package.json` `bin` declares. */
  pkg: string;
  bin: string;
  /** Root files whose presence turns a default-off engine on (empty: only signalint.config.json does); null: on by default. */
  enabledBy: readonly string[] | null;
  /** Why a default-off engine is off when none of `enabledBy` exists. */
  offReason?: string;
  /**
   * A default-off engine the project may configure for itself: root files (the first found is read) and a test of
   * their text, and the command the project lints with. While it is off by default, a check notes the files it would
   * lint and how to turn it on, and is never clean (the project's linter did not run).
   */
  configuredBy?: { files: readonly string[]; configures: (text: string) => boolean; command: string };
  /** File-local linters are driven through the lint room; null: the engine has a runner of its own (tsc). */
  linter: LinterDriver | null;
}

/** Bytes an engine may print before it is killed. */
export const ENGINE_OUTPUT_LIMIT = 10 * 1024 * 1024;

/** Convert an engine-reported path into a project-relative POSIX path, or null when it lies outside the root. */
export type PathMapper = (reported: string) => string | null;

/** A short excerpt of unexpected output for an error message. */
export function excerpt(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat || "(no output)";
}

/** Parse JSON that may be preceded by informational lines (oxlint prints "No files found…" before its JSON). */
export function parseJsonAfterPreamble(text: string, opener: "{" | "["): unknown {
  const trimmed = text.trim();
  try {
    return JSON.parse(trimmed);
  } catch (error) {
    const at = trimmed.search(new RegExp(`^\\${opener}`, "m"));
    if (at <= 0) throw error;
    return JSON.parse(trimmed.slice(at));
  }
}

/**
 * A linter's JSON report read from its stdout (after any preamble), or the failure to return: output that is not JSON
 * is the engine's own failure when it printed nothing there (a config it cannot read: its stderr says why), else
 * output Signalint cannot read. Biome and deno lint report this way.
 */
export function jsonReportOf(result: SpawnResult, tool: string): { report: unknown } | { failure: ParseOutcome } {
  try {
    return { report: parseJsonAfterPreamble(result.stdout, "{") };
  } catch {
    // Not JSON: the engine's failure (or output Signalint cannot read), returned with what it printed.
    const detail = result.stdout.trim() ? result.stdout : result.stderr;
    return {
      failure: {
        ok: false,
        code: result.stdout.trim() ? "engine_output_invalid" : "engine_failed",
        message: `${tool} failed (exit ${result.exitCode}): ${excerpt(detail, 300)}`,
      },
    };
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Positive integer or the fallback (engines use 1-based lines and columns). */
export function position(value: unknown, fallback = 1): number {
  return typeof value === "number" && Number.isInteger(value) && value >= 1 ? value : fallback;
}
