import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseJsonc } from "../core/jsonc.ts";
import type { RawIssue } from "../core/issues.ts";
import type { SpawnResult } from "../runtime/types.ts";
import { excerpt, isRecord, jsonReportOf, type EngineAdapter, type ParseOutcome, type PathMapper } from "./types.ts";

/** Deno's config files: `deno lint` finds the nearest from its working directory up, as it does for every subcommand. */
export const DENO_CONFIGS = ["deno.json", "deno.jsonc"];

// What `deno lint` lints (its default extensions); other paths are not passed to it.
const EXTENSIONS = /\.(c|m)?(j|t)sx?$/;

/** deno lint lints these files (and directories); others are not passed to it. */
export function denoAccepts(path: string): boolean {
  return path === "." || !/\.[^/]+$/.test(path) || EXTENSIONS.test(path);
}

/**
 * deno lint's argv: its JSON reporter; `--permit-no-files` so a path holding nothing it lints is an empty answer, not
 * "No target files found". No `--` before the paths: deno lint takes what follows one as no files at all and lints
 * the whole directory (2.9.6); a path never starts with `-` (core/paths.ts refuses one). The whole root is no path at
 * all, the project's own `deno lint`: a path given replaces deno.json's `lint.include` (`deno lint .` lints every file).
 */
export function denoArgs(paths: readonly string[]): string[] {
  return ["lint", "--json", "--permit-no-files", ...(paths.includes(".") ? [] : paths)];
}

/**
 * deno lint's environment: DENO_DIR under Signalint's cache directory (deno lint keeps its incremental lint cache, and
 * downloads lint plugins, there: never the user's own, which another deno may be using), and no update check.
 */
export function denoEnv(cacheDir: string): Record<string, string> {
  return { DENO_DIR: join(cacheDir, "deno"), DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1" };
}

/** A file URL (`file:///…`, what Deno 2 prints) as a path; any other string as it is. */
function pathOf(reported: string): string {
  if (!reported.startsWith("file://")) return reported;
  try {
    return fileURLToPath(reported);
  } catch {
    // Not a file URL Node can read (another host): kept as printed, so the path mapper leaves it outside the root.
    return reported;
  }
}

/** 1-based line and column of a `range.start` (deno lint: 1-based line, 0-based `col`); null when it is not one. */
function startOf(range: unknown): { line: number; col: number } | null {
  const start = isRecord(range) && isRecord(range.start) ? range.start : null;
  if (!start || !Number.isInteger(start.line) || !Number.isInteger(start.col)) return null;
  return { line: Math.max(1, start.line as number), col: (start.col as number) + 1 };
}

// A parse error's message is its kind, the source excerpt, and where: "SyntaxError: Expression expected\n  |\n1 | …\n
// …\n    at file:///a/b.ts:1:23" (1-based line and column).
const ERROR_AT = /:(\d+):(\d+)\s*$/;

/** Parse `deno lint --json` output strictly: `diagnostics` (lint findings) and `errors` (files it could not parse). */
export function parseDenoOutput(result: SpawnResult, toRelative: PathMapper): ParseOutcome {
  const read = jsonReportOf(result, "deno lint");
  if ("failure" in read) return read.failure;
  const report = read.report;
  if (!isRecord(report) || !Array.isArray(report.diagnostics) || !Array.isArray(report.errors)) {
    return { ok: false, code: "engine_output_invalid", message: `deno lint JSON has no diagnostics and errors arrays: ${excerpt(result.stdout)}` };
  }
  const issues: RawIssue[] = [];
  for (const diagnostic of report.diagnostics) {
    const start = isRecord(diagnostic) ? startOf(diagnostic.range) : null;
    const hint = isRecord(diagnostic) ? diagnostic.hint : undefined;
    if (
      !isRecord(diagnostic) ||
      typeof diagnostic.filename !== "string" ||
      typeof diagnostic.message !== "string" ||
      typeof diagnostic.code !== "string" ||
      !start ||
      (hint !== undefined && hint !== null && typeof hint !== "string")
    )
      return { ok: false, code: "engine_output_invalid", message: `deno lint diagnostic not in its JSON format: ${excerpt(JSON.stringify(diagnostic))}` };
    const file = toRelative(pathOf(diagnostic.filename));
    if (file === null) continue;
    // deno lint has no severities: every finding fails its run. Its JSON says nothing of fixes (deno lint --fix
    // applies some), so none is claimed fixable.
    issues.push({ file, ...start, engine: "deno", rule: diagnostic.code || "deno-lint", severity: "error", message: diagnostic.message, fixable: false });
  }
  for (const error of report.errors) {
    if (!isRecord(error) || typeof error.file_path !== "string" || typeof error.message !== "string")
      return { ok: false, code: "engine_output_invalid", message: `deno lint error not in its JSON format: ${excerpt(JSON.stringify(error))}` };
    const file = toRelative(pathOf(error.file_path));
    if (file === null) continue;
    // A file it could not parse: reported as ESLint reports one (a parse-error issue), at the place its message names,
    // with its first line (the excerpt after it shows that place).
    const at = ERROR_AT.exec(error.message);
    const [line, col] = at ? [Number(at[1]), Number(at[2])] : [1, 1];
    const message = error.message.split("\n")[0] || error.message;
    issues.push({ file, line: Math.max(1, line), col: Math.max(1, col), engine: "deno", rule: "parse-error", severity: "error", message, fixable: false });
  }
  return { ok: true, issues };
}

/** A task's command: a string, or `{command}` (Deno 2.1's task objects). */
function taskCommand(task: unknown): string {
  if (typeof task === "string") return task;
  return isRecord(task) && typeof task.command === "string" ? task.command : "";
}

/**
 * True when a deno.json(c) text says the project lints with deno: a `lint` section, or a task running `deno lint`.
 * Text that is not JSON says nothing (deno reports it when it runs).
 */
export function denoConfigLints(text: string): boolean {
  let config: unknown;
  try {
    config = parseJsonc(text);
  } catch {
    // Not a config deno can read: nothing here says it lints (its own run fails on it).
    return false;
  }
  if (!isRecord(config)) return false;
  if (config.lint !== undefined) return true;
  const tasks = isRecord(config.tasks) ? Object.values(config.tasks) : [];
  return tasks.some((task) => /(^|[\s;&|(])deno\s+lint(\s|$)/.test(taskCommand(task)));
}

/** A specifier deno reads from the disk: relative, absolute or a `file:` URL (not `npm:`, `jsr:`, `https:`, a bare name). */
export function denoLocal(specifier: string): boolean {
  return /^(\.{1,2}\/|\/|file:)/.test(specifier);
}

/** A specifier through a config's `imports` (an exact key, else the longest `prefix/` key), as deno resolves it. */
export function denoMapped(specifier: string, imports: Record<string, unknown>): string {
  const exact = imports[specifier];
  if (typeof exact === "string") return exact;
  const prefix = Object.keys(imports)
    .filter((key) => key.endsWith("/") && specifier.startsWith(key) && typeof imports[key] === "string")
    .sort((a, b) => b.length - a.length)[0];
  return prefix === undefined ? specifier : `${imports[prefix] as string}${specifier.slice(prefix.length)}`;
}

/** A deno config's `lint.plugins`, each through its `imports`. */
export function denoPlugins(config: unknown): string[] {
  if (!isRecord(config) || !isRecord(config.lint) || !Array.isArray(config.lint.plugins)) return [];
  const imports = isRecord(config.imports) ? config.imports : {};
  return config.lint.plugins.filter((plugin): plugin is string => typeof plugin === "string").map((plugin) => denoMapped(plugin, imports));
}

/**
 * The files on disk a deno.json(c) names that change deno lint's answer besides itself, as written there (relative to
 * it, absolute or `file:` URLs): its local lint plugins (whose own relative imports the config inputs follow), its
 * `importMap`, a lockfile it names (`lock`: a path or `{path}`; the default deno.lock beside it is a config file), and the
 * local files its `imports` map to (a plugin may import one by its mapped name).
 */
export function denoConfigReferences(text: string): string[] {
  let config: unknown;
  try {
    config = parseJsonc(text);
  } catch {
    // Not a config deno can read: it names nothing (deno's own run fails on it).
    return [];
  }
  if (!isRecord(config)) return [];
  const lock = isRecord(config.lock) ? config.lock.path : config.lock;
  // A plugin's module imports a mapped specifier (`#names`) as well as a relative one: every local file `imports` maps
  // to (not a `prefix/` directory) may be one the plugins load.
  const mapped = isRecord(config.imports) ? Object.values(config.imports).filter((entry) => typeof entry === "string" && !entry.endsWith("/")) : [];
  const named = [...denoPlugins(config), config.importMap, lock, ...mapped];
  return [...new Set(named.filter((entry): entry is string => typeof entry === "string" && denoLocal(entry)))];
}

/** Every module specifier a JS/TS text imports or re-exports (static or dynamic with a literal). */
export function denoImportSpecifiers(text: string): string[] {
  const found = text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"'\n]+)["']/g);
  return [...new Set([...found].map(([, specifier = ""]) => specifier))];
}

/**
 * What deno writes beside a config (deno.json(c) parsed) when deno lint loads its lint plugins (deno 2.9.6): with
 * `"nodeModulesDir": "auto"`, node_modules/ (the npm packages the project declares) and its lockfile; when the plugins
 * reach npm, jsr or remote modules (`remote`), its lockfile (rewritten whenever it lacks an entry: deno lint has no
 * `--no-lock` nor `--frozen`) and vendor/ with `"vendor": true`. `"lock": false` writes no lockfile.
 */
export function denoTreeWrites(config: unknown, remote: boolean): string[] {
  if (!isRecord(config)) return [];
  const lock = isRecord(config.lock) ? config.lock.path : config.lock;
  const lockfile = lock === false ? [] : [typeof lock === "string" ? lock : "deno.lock"];
  const modules = config.nodeModulesDir === "auto" || config.nodeModulesDir === true;
  return [...(remote || modules ? lockfile : []), ...(modules ? ["node_modules/"] : []), ...(remote && config.vendor === true ? ["vendor/"] : [])];
}

/** deno lint: off unless signalint.config.json turns it on; a project whose deno.json lints gets a note saying how. */
export const DENO: EngineAdapter = {
  pkg: "deno",
  bin: "deno",
  enabledBy: [],
  offReason: 'off unless signalint.config.json has "engines": {"deno": true}',
  configuredBy: { files: DENO_CONFIGS, configures: denoConfigLints, command: "deno lint" },
  linter: {
    accepts: denoAccepts,
    argsFor: denoArgs,
    parse: parseDenoOutput,
    env: denoEnv,
    // Its config (deno.json(c), nested ones in a workspace's members; what they name: denoConfigReferences), the
    // lockfile beside it (the versions of a lint plugin's npm and jsr imports), the ignore file it reads, and
    // package.json (a workspace's members and the npm packages a lint plugin may come from).
    configFiles: [...DENO_CONFIGS, "deno.lock", ".gitignore", "package.json"],
    // No `--ignore`: on the command line it replaces deno.json's `exclude` and `lint.exclude` on a run over the whole
    // root (`deno lint`, `deno lint .`; 2.9.6), so the project's excluded files would be linted. deno lint lints only the JS/TS family, and nothing
    // Signalint writes in a state directory inside the root has one of those extensions (.jsonl, .snapshot,
    // .artifact, .orig, records and markers).
    ignoreArgs: null,
  },
};
