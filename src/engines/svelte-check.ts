import type { RawIssue } from "../core/issues.ts";
import type { SpawnResult } from "../runtime/types.ts";
import { outsideRootIssue, type OutsideRoot } from "./tsc.ts";
import { excerpt, isRecord, type ParseOutcome, type PathMapper } from "./types.ts";

// svelte-check as a type-checker of the programs a project's scripts run it on (`svelte-check`, `svelte-kit sync &&
// svelte-check --tsconfig ./tsconfig.json`): tsc's diagnostics for the .ts files of the program, and for .svelte files
// through svelte2tsx (positions mapped back to the component), plus the Svelte compiler's and CSS warnings.

/**
 * argv of one run: the program's tsconfig (only the files it includes are diagnosed, .ts files too) from its own
 * directory as the workspace, in the machine-verbose format (one JSON object per diagnostic). Nothing is written:
 * `--incremental` and `--tsgo` (which write transpiled files into .svelte-kit or .svelte-check) are never passed.
 */
export function svelteCheckArgs(workspace: string, tsconfig: string): string[] {
  return ["--workspace", workspace, "--tsconfig", tsconfig, "--output", "machine-verbose", "--threshold", "warning"];
}

/** A line of the machine format: `<epoch ms> <rest>`. */
const LINE = /^\d+ (.*)$/;
const COMPLETED = /^COMPLETED (\d+) FILES (\d+) ERRORS (\d+) WARNINGS (\d+) FILES_WITH_PROBLEMS$/;

/** A position of the machine-verbose format: 0-based line and character. */
function zeroBased(value: unknown): { line: number; character: number } | null {
  if (!isRecord(value)) return null;
  const { line, character } = value;
  const valid = (n: unknown) => typeof n === "number" && Number.isInteger(n) && n >= 0;
  return valid(line) && valid(character) ? { line: line as number, character: character as number } : null;
}

/**
 * One diagnostic of the machine-verbose format as a raw issue (engine tsc: svelte-check stands in for tsc on its
 * program): a TypeScript code as `TS<code>`, a Svelte compiler or CSS code as it is. null when it is malformed.
 */
function diagnosticOf(value: unknown, toRelative: PathMapper, outside?: OutsideRoot): { issue: RawIssue | null } | null {
  if (!isRecord(value)) return null;
  const { type, filename, start, message, code } = value;
  const at = zeroBased(start);
  if ((type !== "ERROR" && type !== "WARNING") || typeof filename !== "string" || !at || typeof message !== "string") return null;
  const rule = typeof code === "number" ? `TS${code}` : typeof code === "string" && code ? code : value.source === "svelte" ? "svelte" : null;
  if (rule === null) return null;
  const file = toRelative(filename);
  const issue: RawIssue = {
    file: file ?? "",
    line: at.line + 1,
    col: at.character + 1,
    engine: "tsc",
    rule,
    severity: type === "ERROR" ? "error" : "warning",
    message,
    fixable: false,
  };
  // A file outside the root fails svelte-check all the same: reported on the config, as tsc's (outsideRootIssue).
  return { issue: file === null ? outsideRootIssue(issue, filename, outside) : issue };
}

/**
 * Parse `svelte-check --output machine-verbose` strictly: a START line, one JSON diagnostic per line, and a COMPLETED
 * line whose error and warning counts equal the diagnostics read. A FAILURE line (svelte-check could not run: no
 * tsconfig, a broken svelte.config) is the engine's failure; anything else is invalid output, never an empty success.
 * `toRelative` maps a path as svelte-check printed it (relative to the workspace) to a project-relative one; `outside`
 * places a diagnostic in a file outside the root (see engines/tsc.ts outsideRootIssue).
 */
export function parseSvelteCheckOutput(result: SpawnResult, toRelative: PathMapper, outside?: OutsideRoot): ParseOutcome {
  const issues: RawIssue[] = [];
  let started = false;
  let counts: { errors: number; warnings: number } | null = null;
  let errors = 0;
  let warnings = 0;
  const invalid = (line: string): ParseOutcome => ({
    ok: false,
    code: started ? "engine_output_invalid" : "engine_failed",
    message: `svelte-check printed an unexpected line (exit ${result.exitCode}): ${excerpt(line)}${result.stderr.trim() ? `; stderr: ${excerpt(result.stderr)}` : ""}`,
  });
  for (const line of result.stdout.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const rest = LINE.exec(line)?.[1];
    if (rest === undefined || counts) return invalid(line);
    if (rest.startsWith("START ")) {
      if (started) return invalid(line);
      started = true;
    } else if (rest.startsWith("FAILURE ")) {
      return { ok: false, code: "engine_failed", message: `svelte-check failed: ${excerpt(rest.slice("FAILURE ".length))}` };
    } else if (rest.startsWith("{") && started) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(rest);
      } catch {
        // Not JSON where svelte-check writes JSON: the whole output is invalid, never half read.
        return invalid(line);
      }
      const diagnostic = diagnosticOf(parsed, toRelative, outside);
      if (!diagnostic) return invalid(line);
      if ((parsed as { type: string }).type === "ERROR") errors++;
      else warnings++;
      if (diagnostic.issue) issues.push(diagnostic.issue);
    } else {
      const completed = started ? COMPLETED.exec(rest) : null;
      if (!completed) return invalid(line);
      counts = { errors: Number(completed[2]), warnings: Number(completed[3]) };
    }
  }
  if (!counts) {
    return {
      ok: false,
      code: "engine_failed",
      message: `svelte-check exited with ${result.exitCode ?? result.signal} without completing: ${excerpt(result.stderr || result.stdout)}`,
    };
  }
  if (counts.errors !== errors || counts.warnings !== warnings) {
    return {
      ok: false,
      code: "engine_output_invalid",
      message: `svelte-check counted ${counts.errors} errors and ${counts.warnings} warnings but printed ${errors} and ${warnings}`,
    };
  }
  return { ok: true, issues };
}
