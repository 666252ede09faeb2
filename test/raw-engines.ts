// The oracle for ground-truth tests: run each engine directly, the way a user would, and read its output with
// parsers written independently of src/engines.
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { removeDir, REPO } from "./helpers.ts";

export interface RawDiagnostic {
  engine: "oxlint" | "tsc" | "biome" | "eslint" | "deno";
  file: string;
  line: number;
  rule: string;
  message: string;
}

/** Each engine's own entry in this repo (node_modules/.bin/biome is Biome 1's: two packages declare that bin). */
const ENTRIES: Record<string, string> = {
  oxlint: "node_modules/oxlint/bin/oxlint",
  tsc: "node_modules/typescript/bin/tsc",
  biome: "node_modules/@biomejs/biome/bin/biome",
  eslint: "node_modules/eslint/bin/eslint.js",
};

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): string {
  const result = spawnSync(command.includes("/") ? command : join(REPO, ENTRIES[command] ?? command), args, {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
  if (result.error) throw result.error;
  return result.stdout;
}

function parseTscText(stdout: string, cwd: string, root: string): RawDiagnostic[] {
  const out: RawDiagnostic[] = [];
  for (const line of stdout.split("\n")) {
    const match = /^(.+)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
    if (match) {
      out.push({
        engine: "tsc",
        file: relative(root, join(cwd, match[1] as string)),
        line: Number(match[2]),
        rule: match[4] as string,
        message: match[5] as string,
      });
    } else if (/^\s+\S/.test(line) && out.length) {
      (out.at(-1) as RawDiagnostic).message += ` ${line.trim()}`;
    } else if (line.trim()) {
      throw new Error(`unexpected tsc line: ${line}`);
    }
  }
  return out;
}

/**
 * The inferred-program options as tsc command-line flags (the editors' defaults, as docs/architecture.md lists them);
 * TypeScript 6 and later also need --ignoreConfig to take files on the command line next to a tsconfig.json (TS5112).
 */
export function inferredTscArgs(major: number, besideTsconfig = false): string[] {
  const flags = ["--allowJs", "--skipLibCheck", "--strictNullChecks", "--strictFunctionTypes", "--target", "es2020", "--module", "esnext"];
  flags.push("--moduleResolution", major >= 5 ? "bundler" : "node", "--jsx", "preserve");
  return besideTsconfig && major >= 6 ? [...flags, "--ignoreConfig"] : flags;
}

/** tsc as a user runs it: `tsc --noEmit -p tsconfig.json`, or `tsc -b` (on a scratch copy, since -b writes) for solutions. */
export function rawTsc(root: string, options: { build?: boolean; tscBin?: string; inferred?: string[] } = {}): RawDiagnostic[] {
  const bin = options.tscBin ?? "tsc";
  if (options.inferred) {
    // No tsconfig: the files on the command line with an editor's inferred-project options.
    const inferred = inferredTscArgs(5);
    return parseTscText(run(bin, ["--noEmit", "--pretty", "false", ...inferred, ...options.inferred], root), root, root);
  }
  if (!options.build) return parseTscText(run(bin, ["--noEmit", "--pretty", "false", "-p", "tsconfig.json"], root), root, root);
  const copy = mkdtempSync(join(tmpdir(), "signalint-raw-tsc-"));
  try {
    cpSync(root, copy, { recursive: true });
    return parseTscText(run(bin, ["-b", "--pretty", "false"], copy), copy, copy);
  } finally {
    removeDir(copy);
  }
}

/** oxlint as a user runs it; `tsgolint`: with --type-aware and that oxlint-tsgolint executable. */
export function rawOxlint(root: string, options: { tsgolint?: string; bin?: string } = {}): RawDiagnostic[] {
  const typeAware = options.tsgolint ? ["--type-aware"] : [];
  const env: Record<string, string> = options.tsgolint ? { OXLINT_TSGOLINT_PATH: options.tsgolint } : {};
  const report = JSON.parse(run(options.bin ?? "oxlint", ["--format", "json", ...typeAware, "--ignore-pattern", "**/node_modules/**", "."], root, env)) as {
    diagnostics: { filename: string; code: string; message: string; labels?: { span: { line: number } }[] }[];
  };
  return report.diagnostics.map((d) => ({ engine: "oxlint", file: d.filename, line: d.labels?.[0]?.span.line ?? 1, rule: d.code, message: d.message }));
}

/** Biome as a user runs it; `bin` picks another Biome (1.x prints `description`, a byte `span` and the source). */
export function rawBiome(root: string, options: { bin?: string } = {}): RawDiagnostic[] {
  const report = JSON.parse(run(options.bin ?? "biome", ["lint", "--reporter=json", "--max-diagnostics=none", "."], root)) as {
    diagnostics: {
      category: string;
      message: unknown;
      description?: string;
      location: { path: string | { file: string }; start?: { line: number }; span?: [number, number] | null; sourceCode?: string | null };
    }[];
  };
  return report.diagnostics.map((d) => {
    const { path, start, span, sourceCode } = d.location;
    const line = start?.line ?? (span && sourceCode ? Buffer.from(sourceCode).subarray(0, span[0]).toString().split("\n").length : 0);
    const file = (typeof path === "string" ? path : path.file).replace(/^\.\//, "");
    return { engine: "biome", file, line, rule: d.category, message: d.description ?? (d.message as string) };
  });
}

export function rawEslint(root: string): RawDiagnostic[] {
  const report = JSON.parse(run("eslint", ["--format", "json", "."], root)) as {
    filePath: string;
    messages: { ruleId: string | null; line: number; message: string }[];
  }[];
  return report.flatMap((file) =>
    file.messages.map((m) => ({
      engine: "eslint" as const,
      file: relative(root, file.filePath),
      line: m.line,
      rule: m.ruleId ?? "parse-error",
      message: m.message,
    })),
  );
}

/**
 * deno lint as a user runs it (`deno lint --json` in the project, its deno.json found from there), with its cache in
 * `denoDir`; each finding with the 1-based column its pretty reporter prints (the JSON's `col` counts from 0).
 */
export function rawDeno(root: string, deno: string, denoDir: string): (RawDiagnostic & { col: number })[] {
  const report = JSON.parse(run(deno, ["lint", "--json"], root, { DENO_DIR: denoDir, DENO_NO_UPDATE_CHECK: "1" })) as {
    diagnostics: { filename: string; range: { start: { line: number; col: number } }; code: string; message: string }[];
    errors: unknown[];
  };
  if (report.errors.length) throw new Error(`deno lint could not lint the fixture: ${JSON.stringify(report.errors)}`);
  return report.diagnostics.map((d) => ({
    engine: "deno",
    file: relative(realpathSync(root), d.filename.startsWith("file:") ? fileURLToPath(d.filename) : d.filename),
    line: d.range.start.line,
    col: d.range.start.col + 1,
    rule: d.code,
    message: d.message,
  }));
}

/**
 * Independent statement of the message rule for the server's message of a raw one: whole (whitespace collapsed) when
 * that fits in 120 characters; else at most 120 characters that begin with the raw text up to the first cut ("…": a
 * shortened quoted type or the gap before a TypeScript chain's deepest reason).
 */
export function messageMatches(server: string, raw: string): boolean {
  const flat = raw.replace(/\s+/g, " ").trim();
  if (flat.length <= 120) return server === flat;
  const head = (server.split("…")[0] as string).trimEnd();
  return server.length <= 120 && head.length > 0 && flat.startsWith(head);
}

/** Independent statement of the message rule: whitespace collapsed, at most 120 characters ending in "…". */
export function expectedMessage(message: string): string {
  const flat = message.replace(/\s+/g, " ").trim();
  return flat.length <= 120 ? flat : `${flat.slice(0, 119).trimEnd()}…`;
}
