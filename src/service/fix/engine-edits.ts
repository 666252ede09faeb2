// Each engine's own edits of a file's text, asked without touching the file: ESLint through its Node API on the text
// (engines/eslint-fix.ts), TypeScript's code fixes through a language service on the text (engines/tsc-fix.ts), Biome
// through `lint --write --stdin-file-path` (the text on stdin, the fixed text on stdout), and oxlint, which fixes only
// files in place, through `oxlint --fix` on private copies in Signalint's cache directory (a baseline run first).
import { dirname, isAbsolute, join } from "node:path";
import type { FixKind } from "../../core/contracts.ts";
import type { RawIssue } from "../../core/issues.ts";
import { relativeToRoot } from "../../core/paths.ts";
import { biomeFixArgs } from "../../engines/biome.ts";
import { ESLINT_FIX_LAUNCHER, parseEslintFixAnswers, type EslintFixFile } from "../../engines/eslint-fix.ts";
import { oxlintFixArgs, parseOxlintOutput } from "../../engines/oxlint.ts";
import { parseTscFixAnswer, TSC_FIX_LAUNCHER, type TscFixAnswer, type TscFixFile } from "../../engines/tsc-fix.ts";
import { writeIfChanged } from "../../engines/tsconfig.ts";
import { ENGINE_OUTPUT_LIMIT, excerpt, type ResolvedEngine } from "../../engines/types.ts";
import type { Runtime } from "../../runtime/types.ts";
import type { OxlintCopyPlan } from "./oxlint-copy.ts";
import type { EslintHosts } from "../lint/eslint-hosts.ts";

/** Where and how the engines run: the directory they run from, Signalint's cache directory for the launcher, the timeout. */
export interface EditContext {
  runtime: Runtime;
  /** The directory the engine runs from: the project root, or a package's whose lint script runs it. */
  root: string;
  cacheDir: string;
  timeoutMs: number;
  /** The caller's environment additions (a legacy ESLint config runs with ESLINT_USE_FLAT_CONFIG=false). */
  env?: Record<string, string>;
}

/** One engine's answer for one file: its text after the engine's fixes, and the places it says it fixed. */
export interface EngineEdit {
  output: string;
  /** `rule:line:col` places (of the text it was given) with their kind; Biome names none (it says only the text). */
  fixed: { place: string; kind: FixKind }[];
}

/** An engine that could not give its edits: why, in one line. */
export class EngineEditError extends Error {
  readonly code = "engine_fix_failed";
}

/** Fixes asked requests made by this process so far (each names its own request file). */
let requests = 0;

/**
 * Run a launcher (engines/eslint-fix.ts, engines/tsc-fix.ts) with the node that runs the engine's package, on a
 * request file in the cache directory's `dir`: `node <launcher> <package dir> <request>`; its stdout, or an
 * EngineEditError.
 */
async function runLauncher(context: EditContext, resolved: ResolvedEngine, launcher: { text: string; dir: string }, request: unknown): Promise<string> {
  const name = resolved.engine;
  // The engine's entry runs through a node (never a native binary): the launcher runs in its place.
  if (!resolved.packageDir || resolved.prefixArgs.at(-1) !== resolved.path)
    throw new EngineEditError(`${name} is not run from its own package here (a stand-in or PATH install): its fixes are not asked`);
  const { runtime, cacheDir } = context;
  const script = join(cacheDir, launcher.dir, `fix-${runtime.sha256(launcher.text).slice(0, 12)}.cjs`);
  const requestFile = join(cacheDir, launcher.dir, `fix-request-${runtime.pid}-${++requests}.json`);
  await runtime.mkdirp(join(cacheDir, launcher.dir));
  await writeIfChanged(runtime, script, launcher.text);
  await runtime.writeFileAtomic(requestFile, JSON.stringify(request));
  try {
    const result = await runtime.spawn(resolved.command, [...resolved.prefixArgs.slice(0, -1), script, resolved.packageDir, requestFile], {
      cwd: context.root,
      timeoutMs: context.timeoutMs,
      maxOutputBytes: ENGINE_OUTPUT_LIMIT,
      env: { NO_COLOR: "1", FORCE_COLOR: "0", ...context.env },
    });
    if (result.timedOut) throw new EngineEditError(`${name}'s fixes did not complete within ${context.timeoutMs} ms`);
    if (result.exitCode !== 0) throw new EngineEditError(`${name}'s fixes failed (exit ${result.exitCode}): ${excerpt(result.stderr || result.stdout, 300)}`);
    return result.stdout;
  } finally {
    // Best effort: a request file left in the cache directory is overwritten by the next one.
    await runtime.removeFile(requestFile).catch(() => {});
  }
}

/**
 * ESLint's edits of several files (one process for all), each given as text; writes nothing but its request file. A
 * long-lived server's warm ESLint answers when it can (`warm`: its hosts, and the config inputs of the files' directories).
 */
export async function eslintEdits(
  context: EditContext,
  resolved: ResolvedEngine,
  files: readonly EslintFixFile[],
  options: { flat: boolean; flags: readonly string[]; kinds: readonly FixKind[] },
  warm: { hosts: EslintHosts; inputs: string[] } | null = null,
): Promise<EngineEdit[]> {
  const request = { files, flat: options.flat, flags: options.flags, kinds: options.kinds };
  const { runtime, root, timeoutMs } = context;
  const env = context.env ?? {};
  const hosted = warm ? await warm.hosts.run({ runtime, resolved, cwd: root, env, ask: { fix: request }, inputs: warm.inputs, timeoutMs }) : null;
  const stdout = hosted?.exitCode === 0 ? hosted.stdout : await runLauncher(context, resolved, { text: ESLINT_FIX_LAUNCHER, dir: "eslint" }, request);
  const answers = parseEslintFixAnswers(stdout, files.length);
  if (!answers) throw new EngineEditError(`eslint's fixes failed: ${excerpt(stdout, 300)}`);
  return answers;
}

/**
 * TypeScript's code fixes (5.x/6.x, the project's own) for diagnostics of files given as text, on the programs of the
 * configs the check runs (`configs`, absolute), in one process; writes nothing but its request file.
 */
export async function tscEdits(
  context: EditContext,
  resolved: ResolvedEngine,
  files: readonly TscFixFile[],
  options: { configs: readonly string[]; kinds: readonly FixKind[] },
): Promise<TscFixAnswer> {
  const request = { root: context.root, configs: options.configs, files, kinds: options.kinds };
  const stdout = await runLauncher(context, resolved, { text: TSC_FIX_LAUNCHER, dir: "tsc-fix" }, request);
  const answer = parseTscFixAnswer(stdout);
  if (!answer) throw new EngineEditError(`TypeScript's code fixes failed: ${excerpt(stdout, 300)}`);
  return answer;
}

/** oxlint's answer for one file: what it reported on the copy before its fix, its text after, what it still reports. */
export interface OxlintEdit {
  file: string;
  /** What oxlint reports in the copy's file before fixing (the same run without a fix flag). */
  before: RawIssue[];
  output: string;
  remaining: RawIssue[];
}

/**
 * oxlint's edits of files given as text (`file`: root-relative): each written to a private copy in the cache directory
 * at its own place (`layout`: the config and what it reads mirrored at theirs, service/fix/oxlint-copy.ts), oxlint run
 * there twice with the config passed explicitly, as the copy's own baseline and then with `--fix` (or
 * `--fix-suggestions`); the copies read back and removed. The user's files are never touched. `before`: the baseline
 * of these same texts, config and layout from an earlier pass (then oxlint runs once). oxlint's report of a fixing run
 * names what it left at the places of the text it was given (it lints nothing again), so it is no baseline of the
 * fixed text.
 */
export async function oxlintEdits(
  context: EditContext,
  resolved: ResolvedEngine,
  files: readonly { file: string; text: string }[],
  options: { layout: OxlintCopyPlan; kind: FixKind; before?: ReadonlyMap<string, RawIssue[]> | undefined },
): Promise<OxlintEdit[]> {
  const { runtime, cacheDir } = context;
  const { layout } = options;
  const copy = join(cacheDir, "oxlint-fix", `copy-${runtime.pid}-${++requests}`);
  const cwd = join(copy, layout.cwd);
  const write = async (path: string, text: string) => {
    await runtime.mkdirp(dirname(path));
    await runtime.writeFileAtomic(path, text);
  };
  const run = async (kind: FixKind | null) => {
    const args = oxlintFixArgs(
      files.map(({ file }) => file),
      { config: join(copy, layout.config), kind, version: resolved.version ?? null, ...(layout.rules ? { rules: layout.rules } : {}) },
    );
    const result = await runtime.spawn(resolved.command, [...resolved.prefixArgs, ...args], {
      cwd,
      timeoutMs: context.timeoutMs,
      maxOutputBytes: ENGINE_OUTPUT_LIMIT,
      env: { NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    if (result.timedOut) throw new EngineEditError(`oxlint's fixes did not complete within ${context.timeoutMs} ms`);
    const report = parseOxlintOutput(result, (path) => relativeToRoot(cwd, isAbsolute(path) ? path : join(cwd, path)));
    if (!report.ok) throw new EngineEditError(`oxlint's fixes failed (exit ${result.exitCode}): ${report.message}`);
    return report.issues;
  };
  try {
    for (const { path, text } of layout.extra) await write(join(copy, path), text);
    for (const { file, text } of files) await write(join(cwd, file), text);
    // The copy's own baseline: what oxlint sees there (a rule that reads other files or types may see nothing); given
    // when an earlier pass ran it on these very texts.
    const before = options.before ? null : await run(null);
    const remaining = await run(options.kind);
    const outputs = await Promise.all(files.map(({ file }) => runtime.readText(join(cwd, file))));
    return files.map(({ file }, index) => ({
      file,
      before: before ? before.filter((issue) => issue.file === file) : (options.before?.get(file) ?? []),
      output: outputs[index] as string,
      remaining: remaining.filter((issue) => issue.file === file),
    }));
  } finally {
    // Best effort: a copy left in the cache directory holds only text Signalint was given and the project's configs.
    await runtime.removeFile(copy).catch(() => {});
  }
}

/**
 * Biome's edits of one file given as text (`path`: the file's absolute path, which decides its config and language):
 * `unsafe` adds the fixes Biome marks unsafe; `only` keeps to these rules.
 */
export async function biomeEdits(
  context: EditContext,
  resolved: ResolvedEngine,
  path: string,
  text: string,
  options: { unsafe: boolean; only: readonly string[] | null },
): Promise<EngineEdit> {
  const result = await context.runtime.spawn(resolved.command, [...resolved.prefixArgs, ...biomeFixArgs(path, options)], {
    cwd: context.root,
    timeoutMs: context.timeoutMs,
    maxOutputBytes: ENGINE_OUTPUT_LIMIT,
    env: { NO_COLOR: "1", FORCE_COLOR: "0" },
    input: text,
  });
  if (result.timedOut) throw new EngineEditError(`biome's fixes did not complete within ${context.timeoutMs} ms`);
  // Biome prints the text (fixed or not) and exits 0, or prints nothing and fails (a file it does not handle, a parse error).
  if (result.exitCode !== 0 || result.spawnError || (result.stdout === "" && text !== ""))
    throw new EngineEditError(`biome's fixes failed (exit ${result.exitCode}): ${excerpt(result.stderr || result.stdout, 300)}`);
  return { output: result.stdout, fixed: [] };
}
