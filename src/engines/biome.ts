import type { RawIssue } from "../core/issues.ts";
import type { SpawnResult } from "../runtime/types.ts";
import { excerpt, isRecord, parseJsonAfterPreamble, position, type ParseOutcome, type PathMapper } from "./types.ts";

/** Biome configuration file names. */
export const BIOME_CONFIGS = ["biome.json", "biome.jsonc"];

const EXTENSIONS = /\.(c|m)?(j|t)sx?$|\.(json|jsonc|css|graphql|gql|html|vue|svelte|astro)$/;

/** Biome is given only file types it handles (and directories). */
export function biomeAccepts(path: string): boolean {
  return path === "." || !/\.[^/]+$/.test(path) || EXTENSIONS.test(path);
}

/** biome's argv after the entry point. */
export function biomeArgs(paths: readonly string[]): string[] {
  return ["lint", "--reporter=json", "--max-diagnostics=none", "--no-errors-on-unmatched", "--colors=off", ...paths];
}

/** Parse `biome lint --reporter=json` output strictly. */
export function parseBiomeOutput(result: SpawnResult, toRelative: PathMapper): ParseOutcome {
  let report: unknown;
  try {
    report = parseJsonAfterPreamble(result.stdout, "{");
  } catch {
    const detail = result.stdout.trim() ? result.stdout : result.stderr;
    return { ok: false, code: result.stdout.trim() ? "engine_output_invalid" : "engine_failed", message: `biome failed (exit ${result.exitCode}): ${excerpt(detail, 300)}` };
  }
  if (!isRecord(report) || !Array.isArray(report.diagnostics)) {
    return { ok: false, code: "engine_output_invalid", message: `biome JSON has no diagnostics array: ${excerpt(result.stdout)}` };
  }
  const issues: RawIssue[] = [];
  for (const diagnostic of report.diagnostics) {
    if (!isRecord(diagnostic) || typeof diagnostic.message !== "string") {
      return { ok: false, code: "engine_output_invalid", message: `biome diagnostic without a message: ${excerpt(JSON.stringify(diagnostic))}` };
    }
    const location = isRecord(diagnostic.location) ? diagnostic.location : {};
    if (typeof location.path !== "string") {
      if (diagnostic.severity === "error" || diagnostic.severity === "fatal") {
        return { ok: false, code: "engine_failed", message: `biome: ${excerpt(diagnostic.message)}` };
      }
      continue;
    }
    const file = toRelative(location.path);
    if (file === null) continue;
    const start = isRecord(location.start) ? location.start : {};
    issues.push({
      file,
      line: position(start.line),
      col: position(start.column),
      engine: "biome",
      rule: typeof diagnostic.category === "string" ? diagnostic.category : "biome",
      severity: diagnostic.severity === "error" || diagnostic.severity === "fatal" ? "error" : "warning",
      message: diagnostic.message,
      // Biome's JSON reporter carries no fix edits.
      fixable: false,
    });
  }
  return { ok: true, issues };
}
