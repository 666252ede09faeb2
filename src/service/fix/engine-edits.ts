// Each engine's own edits of a file's text, asked without touching the file: ESLint through its Node API on the text
// (engines/eslint-fix.ts), Biome through `lint --write --stdin-file-path` (the text on stdin, the fixed text on stdout).
// oxlint fixes only files in place and tsc's code fixes are not asked here: what they would fix is said, not done.
import { join } from "node:path";
import type { FixKind } from "../../core/contracts.ts";
import { biomeFixArgs } from "../../engines/biome.ts";
import { ESLINT_FIX_LAUNCHER, parseEslintFixAnswers, type EslintFixFile } from "../../engines/eslint-fix.ts";
import { writeIfChanged } from "../../engines/tsconfig.ts";
import { ENGINE_OUTPUT_LIMIT, excerpt, type ResolvedEngine } from "../../engines/types.ts";
import type { Runtime } from "../../runtime/types.ts";

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

/** ESLint's edits of several files (one process for all), each given as text; writes nothing but its request file. */
export async function eslintEdits(
  context: EditContext,
  resolved: ResolvedEngine,
  files: readonly EslintFixFile[],
  options: { flat: boolean; flags: readonly string[]; kinds: readonly FixKind[] },
): Promise<EngineEdit[]> {
  // ESLint's entry runs through a node (never a native binary): the launcher runs in its place.
  if (!resolved.packageDir || resolved.prefixArgs.at(-1) !== resolved.path)
    throw new EngineEditError("ESLint is not run from its own package here (a stand-in or PATH install): its fixes are not asked");
  const { runtime, cacheDir } = context;
  const launcher = join(cacheDir, "eslint", `fix-${runtime.sha256(ESLINT_FIX_LAUNCHER).slice(0, 12)}.cjs`);
  const request = join(cacheDir, "eslint", `fix-request-${runtime.pid}-${++requests}.json`);
  await runtime.mkdirp(join(cacheDir, "eslint"));
  await writeIfChanged(runtime, launcher, ESLINT_FIX_LAUNCHER);
  await runtime.writeFileAtomic(request, JSON.stringify({ files, flat: options.flat, flags: options.flags, kinds: options.kinds }));
  try {
    const result = await runtime.spawn(resolved.command, [...resolved.prefixArgs.slice(0, -1), launcher, resolved.packageDir, request], {
      cwd: context.root,
      timeoutMs: context.timeoutMs,
      maxOutputBytes: ENGINE_OUTPUT_LIMIT,
      env: { NO_COLOR: "1", FORCE_COLOR: "0", ...context.env },
    });
    if (result.timedOut) throw new EngineEditError(`eslint's fixes did not complete within ${context.timeoutMs} ms`);
    const answers = result.exitCode === 0 ? parseEslintFixAnswers(result.stdout, files.length) : null;
    if (!answers) throw new EngineEditError(`eslint's fixes failed (exit ${result.exitCode}): ${excerpt(result.stderr || result.stdout, 300)}`);
    return answers;
  } finally {
    // Best effort: a request file left in the cache directory is overwritten by the next one.
    await runtime.removeFile(request).catch(() => {});
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
