import type { RawIssue } from "../core/issues.ts";
import type { SpawnResult } from "../runtime/types.ts";
import { excerpt, isRecord, jsonReportOf, position, type EngineAdapter, type FileFailure, type ParseOutcome, type PathMapper } from "./types.ts";

/** Biome configuration file names. */
export const BIOME_CONFIGS = ["biome.json", "biome.jsonc"];

const EXTENSIONS = /\.(c|m)?(j|t)sx?$|\.(json|jsonc|css|graphql|gql|html|vue|svelte|astro)$/;

/** Biome is given only file types it handles (and directories). */
export function biomeAccepts(path: string): boolean {
  return path === "." || !/\.[^/]+$/.test(path) || EXTENSIONS.test(path);
}

/**
 * biome's argv after the entry point (the diagnostics' advices say which have a fix, see fixMarkOf); `--max-diagnostics`
 * as its version takes it (see biomeMaxDiagnostics).
 */
export function biomeArgs(paths: readonly string[], version: string | null): string[] {
  return ["lint", "--reporter=json", `--max-diagnostics=${biomeMaxDiagnostics(version)}`, "--no-errors-on-unmatched", "--colors=off", ...paths];
}

/**
 * `--max-diagnostics` for a Biome version: `none` from 1.9 on; before, a number (1.8 refuses `none`: "couldn't parse
 * `none`", found on drwpow/openapi-typescript), its largest, with the report's `diagnosticsNotPrinted` checked.
 */
export function biomeMaxDiagnostics(version: string | null | undefined): string {
  const [major = 0, minor = 0] = (version ?? "").split(".").map(Number);
  return major === 1 && minor < 9 ? "65535" : "none";
}

/**
 * biome's argv for its own fixes of one file's text, given on stdin as the file at `path`: it prints the fixed text
 * (`lint --write`, what Signalint's lint run reports; `unsafe` adds the fixes it marks unsafe, which `--write` alone
 * leaves); `only`: just these rules (their `lint/group/rule` categories).
 */
export function biomeFixArgs(path: string, options: { unsafe: boolean; only: readonly string[] | null }): string[] {
  const only = (options.only ?? []).map((rule) => `--only=${rule.replace(/^lint\//, "")}`);
  return ["lint", "--write", ...(options.unsafe ? ["--unsafe"] : []), ...only, "--colors=off", `--stdin-file-path=${path}`];
}

/**
 * biome's argv for its own fixes of files in place (`paths`: relative to where it runs, each prefixed `./` so none reads
 * as a switch): as biomeFixArgs, with its JSON report on stdout, which says it ran. Signalint runs it only on private
 * copies (service/fix/biome-overlay.ts).
 */
export function biomeFixFilesArgs(paths: readonly string[], options: { unsafe: boolean; only: readonly string[] | null }): string[] {
  const only = (options.only ?? []).map((rule) => `--only=${rule.replace(/^lint\//, "")}`);
  return ["lint", "--write", ...(options.unsafe ? ["--unsafe"] : []), ...only, "--colors=off", "--reporter=json", ...paths.map((path) => `./${path}`)];
}

/** One Biome diagnostic, read from either reporter shape. */
interface BiomeDiagnostic {
  message: string;
  category: string | null;
  severity: unknown;
  path: string | null;
  line: number;
  col: number;
  /** Whether Biome says it has a fix, and which kind (see fixMarkOf). */
  fix: Pick<RawIssue, "fixable" | "fixKind">;
}

/** The advice texts of a diagnostic: Biome 2 lists `{text}` entries, Biome 1 `{advices: [{log: [level, [{content}]]}]}`. */
function adviceTexts(advices: unknown): string[] {
  if (Array.isArray(advices)) return advices.flatMap((advice) => (isRecord(advice) && typeof advice.text === "string" ? [advice.text] : []));
  if (!isRecord(advices) || !Array.isArray(advices.advices)) return [];
  return advices.advices.flatMap((advice) => {
    const log = isRecord(advice) && Array.isArray(advice.log) ? advice.log[1] : null;
    return Array.isArray(log) ? [log.map((part) => (isRecord(part) && typeof part.content === "string" ? part.content : "")).join("")] : [];
  });
}

/**
 * What Biome says of a diagnostic's fix, in the advice it prints with it: "Safe fix: …" (what `--write` applies) or
 * "Unsafe fix: …" (only with `--unsafe`). Biome 1 prints both in its JSON; Biome 2's JSON keeps only the safe ones'
 * advice, so there an unsafe fix is not known and not claimed.
 */
function fixMarkOf(diagnostic: Record<string, unknown>): Pick<RawIssue, "fixable" | "fixKind"> {
  const texts = adviceTexts(diagnostic.advices);
  if (texts.some((text) => text.startsWith("Safe fix"))) return { fixable: true, fixKind: "safe" };
  if (texts.some((text) => text.startsWith("Unsafe fix"))) return { fixable: true, fixKind: "suggestion" };
  return { fixable: false };
}

// Biome's categories for a file it could not read or decode (2.x, 1.x); it checks every other file.
const FILE_FAILURES = new Set(["fs/io", "internalError/io", "internalError/fs"]);

/** 1-based line and column of a UTF-8 byte offset in a source text (Biome 1.x gives offsets, not positions). */
function lineAndColumn(source: string, byteOffset: number): { line: number; col: number } {
  const before = new TextDecoder().decode(new TextEncoder().encode(source).slice(0, byteOffset));
  const lines = before.split("\n");
  return { line: lines.length, col: [...(lines.at(-1) ?? "")].length + 1 };
}

/**
 * Biome 2.x: `message` is text and `location` has `path` and `start: {line, column}`. Biome 1.x: `description` is
 * the text (`message` is markup) and `location` is `{path: {file}, span: [start, end], sourceCode}`. Anything else
 * is not Biome's JSON.
 */
function readDiagnostic(diagnostic: unknown): BiomeDiagnostic | null {
  if (!isRecord(diagnostic)) return null;
  const location = isRecord(diagnostic.location) ? diagnostic.location : {};
  const category = typeof diagnostic.category === "string" ? diagnostic.category : null;
  if (typeof diagnostic.message === "string") {
    const start = isRecord(location.start) ? location.start : {};
    const path = typeof location.path === "string" ? location.path : null;
    return {
      message: diagnostic.message,
      category,
      severity: diagnostic.severity,
      path,
      line: position(start.line),
      col: position(start.column),
      fix: fixMarkOf(diagnostic),
    };
  }
  if (typeof diagnostic.description !== "string") return null;
  const path = isRecord(location.path) && typeof location.path.file === "string" ? location.path.file : null;
  const span = Array.isArray(location.span) && typeof location.span[0] === "number" ? location.span[0] : null;
  const at = span !== null && typeof location.sourceCode === "string" ? lineAndColumn(location.sourceCode, span) : { line: 1, col: 1 };
  return { message: diagnostic.description, category, severity: diagnostic.severity, path, line: at.line, col: at.col, fix: fixMarkOf(diagnostic) };
}

/** Parse `biome lint --reporter=json` output (Biome 1.x or 2.x) strictly. */
export function parseBiomeOutput(result: SpawnResult, toRelative: PathMapper): ParseOutcome {
  const read = jsonReportOf(result, "biome");
  if ("failure" in read) return read.failure;
  const report = read.report;
  if (!isRecord(report) || !Array.isArray(report.diagnostics)) {
    return { ok: false, code: "engine_output_invalid", message: `biome JSON has no diagnostics array: ${excerpt(result.stdout)}` };
  }
  // Diagnostics past --max-diagnostics are counted, not printed: an answer without them is not the whole answer.
  const notPrinted = isRecord(report.summary) ? report.summary.diagnosticsNotPrinted : 0;
  if (typeof notPrinted === "number" && notPrinted > 0)
    return { ok: false, code: "engine_output_exceeded", message: `biome left ${notPrinted} diagnostics out of its report (--max-diagnostics)` };
  const issues: RawIssue[] = [];
  const failures: FileFailure[] = [];
  for (const raw of report.diagnostics) {
    const diagnostic = readDiagnostic(raw);
    if (!diagnostic) return { ok: false, code: "engine_output_invalid", message: `biome diagnostic without a message: ${excerpt(JSON.stringify(raw))}` };
    const error = diagnostic.severity === "error" || diagnostic.severity === "fatal";
    if (diagnostic.path === null) {
      if (error) return { ok: false, code: "engine_failed", message: `biome: ${excerpt(diagnostic.message)}` };
      continue;
    }
    if (diagnostic.category !== null && FILE_FAILURES.has(diagnostic.category)) {
      failures.push({ file: toRelative(diagnostic.path) ?? diagnostic.path, reason: diagnostic.message });
      continue;
    }
    const file = toRelative(diagnostic.path);
    if (file === null) continue;
    issues.push({
      file,
      line: diagnostic.line,
      col: diagnostic.col,
      engine: "biome",
      rule: diagnostic.category ?? "biome",
      severity: error ? "error" : "warning",
      message: diagnostic.message,
      ...diagnostic.fix,
    });
  }
  return { ok: true, issues, ...(failures.length ? { failures } : {}) };
}

/** Biome: off unless the project has a Biome config (or the config file enables it). */
export const BIOME: EngineAdapter = {
  pkg: "@biomejs/biome",
  bin: "biome",
  enabledBy: BIOME_CONFIGS,
  offReason: "off by default; enable with a biome.json or engines.biome in signalint.config.json",
  linter: {
    accepts: biomeAccepts,
    argsFor: biomeArgs,
    parse: parseBiomeOutput,
    configFiles: ["biome.json", "biome.jsonc", ".gitignore", ".editorconfig", "package.json"],
    // Biome has no ignore switch; what Signalint writes in a state directory inside the root is JSON its rules accept.
    ignoreArgs: null,
  },
};
