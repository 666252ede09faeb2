import type { RawIssue } from "../core/issues.ts";
import type { SpawnResult } from "../runtime/types.ts";
import { excerpt, type EngineAdapter, type ParseOutcome, type PathMapper } from "./types.ts";

const LOCATED = /^(.+?)\((\d+),(\d+)\): (error|warning|message) (TS\d+): (.*)$/;
const GLOBAL = /^(error|warning|message) (TS\d+): (.*)$/;

/**
 * True for a diagnostic located in a JSON file: tsc reports those only for its config files (the tsconfig and what it
 * extends), and a broken config breaks the whole program's check, whatever files were asked about.
 */
export function isConfigDiagnosticFile(file: string): boolean {
  return file.endsWith(".json");
}

/**
 * Options that change what tsc prints, not what it finds (resolution traces, timings, file lists, colour): a
 * tsconfig may set them, and the parser reads only diagnostics. Set off on the command line, which wins over the
 * config, in `-p` and `-b` mode alike (TypeScript 5.x, 6.x and 7 accept each of them in both).
 */
export const TSC_OUTPUT_NEUTRAL = [
  "--pretty",
  "false",
  "--traceResolution",
  "false",
  "--extendedDiagnostics",
  "false",
  "--diagnostics",
  "false",
  "--listFiles",
  "false",
  "--explainFiles",
  "false",
  "--listEmittedFiles",
  "false",
];

/**
 * argv for a plain project: `--noEmit -p <tsconfig>` with output-format options off, and the build info of an
 * `incremental` or `composite` config (which `--noEmit` still writes) moved to `buildInfo`, outside the project tree.
 * `--tsBuildInfoFile` is accepted (and writes nothing) for a config that is neither; none of these changes which
 * files the program has or how they resolve. `extra`: further redirections (profiles, traces).
 */
export function tscProjectArgs(tsconfig: string, buildInfo?: string, extra: readonly string[] = []): string[] {
  return ["--noEmit", ...TSC_OUTPUT_NEUTRAL, ...(buildInfo ? ["--tsBuildInfoFile", buildInfo] : []), ...extra, "-p", tsconfig];
}

/** argv that lists every file of a tsconfig's program (roots and what they import), one absolute path per line. */
export function tscListFilesArgs(tsconfig: string): string[] {
  return ["--listFilesOnly", "-p", tsconfig];
}

/** argv for build mode over a solution config (the user's own, or a generated one), output-format options off. */
export function tscBuildArgs(solution: string, extra: readonly string[] = []): string[] {
  return ["-b", solution, ...TSC_OUTPUT_NEUTRAL, ...extra];
}

/**
 * For a file outside the root (as tsc printed it): the in-root config to report its diagnostic on — the config that
 * leads to it (a config file), else the checked one — and how to name the file (relative to the root: `../…`).
 */
export type OutsideRoot = (reported: string) => { file: string; shown: string } | null;

/**
 * A diagnostic located in a file outside the root, reported on an in-root config with its own location in the message
 * (paths stay project-relative), program-wide: a config file there (a shared base a tsconfig extends) breaks the
 * program; any other file there (a declaration file of a `node_modules` linked from elsewhere or hoisted above the root,
 * a source a `paths` mapping or an include reaches outside it) fails the project's own tsc all the same, so its error
 * is never dropped into a clean answer. null without `outside`, or where it keeps none (see service/tsc/outside-root.ts).
 */
export function outsideRootIssue(issue: RawIssue, reported: string, outside: OutsideRoot | undefined): RawIssue | null {
  const place = outside?.(reported);
  if (!place) return null;
  const { file, shown } = place;
  return { ...issue, file, line: 1, col: 1, programWide: true, message: `${shown}(${issue.line},${issue.col}): ${issue.message}` };
}

/**
 * Parse `tsc --pretty false` output strictly: every non-blank line is a diagnostic header or an indented
 * continuation of one. A diagnostic without a location is attached to the tsconfig it came from; one in a config
 * file outside the root to the in-root config that leads to it (`outside`).
 */
export function parseTscOutput(result: SpawnResult, toRelative: PathMapper, configFile: string, outside?: OutsideRoot): ParseOutcome {
  const issues: RawIssue[] = [];
  let last: RawIssue | null = null;
  let lastKept = false;
  // Diagnostics seen, including ones outside the root that are dropped (no `outside`, or Signalint's own files): a
  // non-zero exit with some is normal.
  let seen = 0;
  for (const line of result.stdout.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const located = LOCATED.exec(line);
    const global = located ? null : GLOBAL.exec(line);
    if (located || global) seen += 1;
    if (located) {
      const [, path, row, col, category, code, message] = located as unknown as string[];
      const file = toRelative(path as string);
      last = {
        file: file ?? "",
        line: Number(row),
        col: Number(col),
        engine: "tsc",
        rule: code as string,
        severity: category === "error" ? "error" : "warning",
        message: message as string,
        fixable: false,
      };
      if (file !== null && isConfigDiagnosticFile(file)) last.programWide = true;
      if (file === null) last = outsideRootIssue(last, path as string, outside) ?? last;
      lastKept = file !== null || last.programWide === true;
      if (lastKept) issues.push(last);
    } else if (global) {
      const [, category, code, message] = global as unknown as string[];
      last = {
        file: configFile,
        line: 1,
        col: 1,
        engine: "tsc",
        rule: code as string,
        severity: category === "error" ? "error" : "warning",
        message: message as string,
        fixable: false,
        programWide: true,
      };
      lastKept = true;
      issues.push(last);
    } else if (/^\s/.test(line) && last) {
      // Elaboration lines of the previous diagnostic (its message chain), kept as lines for get_issue_detail.
      if (lastKept) last.message += `\n${line.trimEnd()}`;
    } else {
      const code = seen === 0 && result.exitCode !== 0 ? "engine_failed" : "engine_output_invalid";
      return {
        ok: false,
        code,
        message: `tsc printed an unexpected line (exit ${result.exitCode}): ${excerpt(line)}${result.stderr.trim() ? `; stderr: ${excerpt(result.stderr)}` : ""}`,
      };
    }
  }
  if (seen === 0 && result.exitCode !== 0) {
    return {
      ok: false,
      code: "engine_failed",
      message: `tsc exited with ${result.exitCode ?? result.signal} and reported no diagnostics: ${excerpt(result.stderr || result.stdout)}`,
    };
  }
  return { ok: true, issues };
}

/** tsc: on by default; its runner (the tsc room) chooses programs and keeps them warm. */
export const TSC: EngineAdapter = { pkg: "typescript", bin: "tsc", enabledBy: null, linter: null };
