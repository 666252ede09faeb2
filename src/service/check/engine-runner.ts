import { isAbsolute, join, relative, resolve } from "node:path";
import type { EngineName, EngineStatus } from "../../core/contracts.ts";
import type { RawIssue } from "../../core/issues.ts";
import { relativeToRoot } from "../../core/paths.ts";
import { eslintConfigLookupFlag, eslintLegacyAccepts, eslintLegacyArgs } from "../../engines/eslint.ts";
import { dependentsToLint, eslintTypeInformation } from "../lint/typed-eslint.ts";
import { oxlintArgs, oxlintTypeAwareEnv } from "../../engines/oxlint.ts";
import { ENGINES } from "../../engines/registry.ts";
import { addDevCommand, installHint, majorVersion, yarnPnp } from "../../engines/resolve.ts";
import { parseTscOutput } from "../../engines/tsc.ts";
import {
  ENGINE_OUTPUT_LIMIT,
  excerpt,
  type FileFailure,
  type NodeCommand,
  type ParseOutcome,
  type PathMapper,
  type ResolvedEngine,
} from "../../engines/types.ts";
import type { Runtime, SpawnResult } from "../../runtime/types.ts";
import { withEslintScope } from "../lint/eslint-scope.ts";
import { withBiomeScope } from "../lint/biome-scope.ts";
import { oxlintReadsOtherFiles, TSGOLINT_MISSING, withOxlintScope, type OxlintScriptArgs } from "../lint/oxlint-scope.ts";
import { denoTreeWritesReason } from "../lint/deno-writes.ts";
import { readManifest } from "../project/workspace.ts";
import { runCachedLinter, type LintJob, type LinterSpec, type SpawnContext } from "../lint/lint-runner.ts";
import { runTsc, tscApplies, type TscJob } from "../tsc/tsc-runner.ts";
import type { EngineJob, EngineReport, RunnerOutcome } from "../job/engine-job.ts";

/** Everything any engine of a check may need: the lint room's and the tsc room's inputs. */
export type CheckJob = LintJob &
  TscJob & {
    /** ESLint runs a legacy .eslintrc* config (no flat config in the root). */
    eslintLegacy?: boolean;
    /** The engine as the check resolved it (null: not installed); the check resolves each engine once. */
    resolved: ResolvedEngine | null;
  };

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}

/** Map a spawn that timed out, overflowed or could not start to the engine's failure. */
function spawnFailure(engine: EngineName, result: SpawnResult, timeoutMs: number): ParseOutcome | null {
  if (result.timedOut)
    return {
      ok: false,
      code: "timeout",
      message: `${engine} did not complete within ${formatSeconds(timeoutMs)} (timeoutsMs.${engine} in signalint.config.json raises the limit)`,
    };
  if (result.outputExceeded) return { ok: false, code: "engine_output_exceeded", message: `${engine} output exceeded the 10 MiB limit` };
  if (result.spawnError) return { ok: false, code: "engine_failed", message: `${engine} could not be started: ${result.spawnError}` };
  if (result.signal) return { ok: false, code: "engine_failed", message: `${engine} was killed by ${result.signal}` };
  return null;
}

/**
 * Engine paths are relative to the root (the engines' working directory) or absolute. Engines see the real working
 * directory, so absolute paths under a symlinked root come back under its real path: both are the project.
 */
export function pathMapper(root: string, realRoot: string): PathMapper {
  return (reported) => {
    const absolute = isAbsolute(reported) ? reported : resolve(root, reported);
    return relativeToRoot(root, absolute) ?? relativeToRoot(realRoot, absolute);
  };
}

async function spawnEngine(job: EngineJob, resolved: ResolvedEngine, args: string[], env: Record<string, string> = {}, cwd = job.root): Promise<SpawnResult> {
  return job.runtime.spawn(resolved.command, [...resolved.prefixArgs, ...args], {
    cwd,
    timeoutMs: job.timeoutMs,
    maxOutputBytes: ENGINE_OUTPUT_LIMIT,
    // Keep engine output plain and uncoloured.
    env: { NO_COLOR: "1", FORCE_COLOR: "0", ...env },
    signal: job.signal,
  });
}

/**
 * Linters never look at the state directory when it is inside the root: the adapter's ignore arguments (its
 * `ignoreArgs`) go before the `--` that precedes the paths, or last when its argv has none (deno lint).
 */
function withStateDirIgnored(engine: EngineName, job: EngineJob, args: string[]): string[] {
  const state = relativeToRoot(job.root, job.stateDir);
  const separator = args.indexOf("--");
  const ignoreArgs = ENGINES[engine].linter?.ignoreArgs;
  if (state === null || state === "." || !ignoreArgs) return args;
  if (separator < 0) return [...args, ...ignoreArgs(state)];
  return [...args.slice(0, separator), ...ignoreArgs(state), ...args.slice(separator)];
}

async function run(engine: EngineName, job: CheckJob, resolved: ResolvedEngine): Promise<RunnerOutcome> {
  job.onEvent?.({ kind: "engine-started", engine });
  const linter = ENGINES[engine].linter;
  if (linter === null) {
    return runTsc(job, resolved, async (args, configFile, { checker, entry, outside, parse }) => {
      const compiler = checker ?? resolved;
      // A script of Signalint's own (the output overlay) runs in place of the compiler's entry, through the same node.
      const launch = entry ? { ...compiler, prefixArgs: [...compiler.prefixArgs.slice(0, -1), entry] } : compiler;
      const result = await spawnEngine(job, launch, args);
      return spawnFailure("tsc", result, job.timeoutMs) ?? (parse ? parse(result) : parseTscOutput(result, job.toRelative, configFile, outside));
    });
  }
  // ESLint lints where the project's lint scripts do (`eslint ./src`), as they do (legacy config, `--ext`).
  if (engine === "eslint")
    return withEslintScope(job, (scoped, ext, fromFile) =>
      job.eslintLegacy
        ? runLegacyEslint(scoped, resolved, ext)
        : runLinter(engine, scoped, resolved, fromFile ? eslintConfigLookupFlag(resolved.version) : null),
    );
  // Biome runs from each package directory whose lint script runs it (`biome check src`), with that package's config.
  if (engine === "biome") return withBiomeScope(job, (scoped, cwd) => runLinter(engine, scoped, resolved, null, cwd));
  // oxlint runs from each directory whose lint script runs it, with the script's flags (`-c .config/.oxlintrc.json`).
  if (engine === "oxlint") {
    const typeAwareOff = !job.oxlintTypeAware ? "oxlintTypeAware is false" : resolved.typeAware ? null : TSGOLINT_MISSING;
    return withOxlintScope(job, (scoped, cwd, script) => runLinter(engine, scoped, resolved, null, cwd, script), typeAwareOff);
  }
  // deno lint only where it writes nothing into the project (its lint plugins: lint/deno-writes.ts).
  const writes = engine === "deno" ? await denoTreeWritesReason(job.runtime, job.root, job.paths) : null;
  if (writes) return { ok: false, code: "engine_failed", message: writes };
  return runLinter(engine, job, resolved);
}

/** A file-local linter (oxlint, Biome, flat-config ESLint, deno lint) through the result cache. */
async function runLinter(
  engine: EngineName,
  job: CheckJob,
  resolved: ResolvedEngine,
  eslintFlag: string | null = null,
  cwd = job.root,
  script: OxlintScriptArgs | null = null,
): Promise<RunnerOutcome> {
  const linter = ENGINES[engine].linter as NonNullable<(typeof ENGINES)[EngineName]["linter"]>;
  // Run from a package directory: paths given relative to it, paths reported relative to it.
  const fromCwd = (paths: readonly string[]) => paths.map((path) => relative(cwd, join(job.root, path)).replace(/\\/g, "/") || ".");
  const toRelative = cwd === job.root ? job.toRelative : (reported: string) => job.toRelative(isAbsolute(reported) ? reported : resolve(cwd, reported));
  // oxlint's type-aware rules run as its lint script says (`--type-aware`), or without a script when tsgolint is installed.
  const tsgolint = engine === "oxlint" && job.oxlintTypeAware && (script?.typeAware ?? true) ? resolved.typeAware?.path : undefined;
  // Type-aware findings depend on other files (types): such a run is never cached per file (fileLocal: false).
  // The adapter's argv for the version that runs; oxlint's type-aware rules and ESLint's config-lookup flag are this job's.
  const version = resolved.version ?? null;
  const engineArgs = (paths: readonly string[]) =>
    engine === "oxlint"
      ? oxlintArgs(paths, version, tsgolint !== undefined, script?.args)
      : eslintFlag
        ? ["--flag", eslintFlag, ...linter.argsFor(paths, version)]
        : linter.argsFor(paths, version);
  const spec: LinterSpec = {
    engine,
    ...linter,
    // Paths given relative to the directory it runs from (a package's, for a Biome lint script there).
    argsFor: cwd === job.root ? engineArgs : (paths) => engineArgs(fromCwd(paths)),
    ...(tsgolint || (script && oxlintReadsOtherFiles(script)) ? { fileLocal: false } : {}),
    ...(cwd !== job.root ? { cwd } : {}),
    ...(script?.inputs.length ? { inputs: script.inputs } : {}),
    ...(engine === "eslint"
      ? {
          typeInformation: (files: readonly string[]) =>
            eslintTypeInformation(job, resolved, { flat: true, flags: eslintFlag ? [eslintFlag] : [], env: {} }, files),
          dependents: (named: readonly string[]) => dependentsToLint(job, linter.accepts, named),
        }
      : {}),
  };
  const outcome = await runCachedLinter(spec, job, resolved, async (args, context) => {
    const env = { ...linter.env?.(job.cacheDir), ...(tsgolint ? oxlintTypeAwareEnv(tsgolint) : {}) };
    const argv = withStateDirIgnored(engine, job, args);
    const result = (engine === "eslint" && (await warmEslint(job, resolved, argv, env, cwd, context))) || (await spawnEngine(job, resolved, argv, env, cwd));
    return spawnFailure(engine, result, job.timeoutMs) ?? spec.parse(result, toRelative);
  });
  // A file-local linter's answer depends on the tree, its version and its configs (as its cache key does); a
  // type-aware one's on types from anywhere, which nothing stamps: never reused.
  return tsgolint ? outcome : withReuse(outcome, resolved);
}

/**
 * A linter's successful outcome marked reusable (its files outside the tree are the config inputs the hasher saw); an
 * engine of unknown version is known by its executable (as in the lint cache's identity), which a quiet check stamps.
 */
function withReuse(outcome: RunnerOutcome, resolved: ResolvedEngine): RunnerOutcome {
  return "ok" in outcome && outcome.ok ? { ...outcome, reuse: { reads: resolved.version ? [] : [resolved.path] } } : outcome;
}

/**
 * ESLint's answer from a warm host (lint/eslint-hosts.ts) when one may give it; null: the command line answers — always
 * for a run whose findings may read other files (`context.typed`).
 */
async function warmEslint(
  job: CheckJob,
  resolved: ResolvedEngine,
  args: string[],
  env: Record<string, string>,
  cwd: string,
  context: SpawnContext,
): Promise<SpawnResult | null> {
  if (!job.eslintHosts || context.typed) return null;
  const inputs = await context.inputs();
  return job.eslintHosts.run({ runtime: job.runtime, resolved, cwd, env, ask: { args }, inputs, timeoutMs: job.timeoutMs, signal: job.signal });
}

/**
 * ESLint on a legacy `.eslintrc*` project, the way its version runs it: ESLint 8 natively, ESLint 9 with
 * ESLINT_USE_FLAT_CONFIG=false; ESLint 10 no longer reads such configs, so the project's own eslint fails as well.
 */
async function runLegacyEslint(job: CheckJob, resolved: ResolvedEngine, ext: readonly string[]): Promise<RunnerOutcome> {
  const major = majorVersion(resolved);
  if (major >= 10)
    return {
      ok: false,
      code: "engine_failed",
      message: `the project configures ESLint with .eslintrc*, which ESLint ${resolved.version} no longer reads (ESLint 8 or 9 does)`,
    };
  const linter = ENGINES.eslint.linter as NonNullable<(typeof ENGINES)["eslint"]["linter"]>;
  const accepts = eslintLegacyAccepts(ext);
  const legacy = { ESLINT_USE_FLAT_CONFIG: "false" };
  const spec: LinterSpec = {
    engine: "eslint",
    ...linter,
    accepts,
    tracks: accepts,
    argsFor: (paths) => eslintLegacyArgs(paths, ext),
    lintsUnasked: accepts,
    typeInformation: (files) => eslintTypeInformation(job, resolved, { flat: false, flags: [], env: legacy }, files),
    dependents: (named) => dependentsToLint(job, accepts, named),
  };
  const outcome = await runCachedLinter(spec, job, resolved, async (args, context) => {
    const argv = withStateDirIgnored("eslint", job, args);
    const result = (await warmEslint(job, resolved, argv, legacy, job.root, context)) ?? (await spawnEngine(job, resolved, argv, legacy));
    return spawnFailure("eslint", result, job.timeoutMs) ?? spec.parse(result, job.toRelative);
  });
  return withReuse(outcome, resolved);
}

/**
 * A missing engine is an error when the project asks for it: enabled explicitly in signalint.config.json, or tsc
 * when the checked files include TypeScript (or a tsconfig covers them). Other default-on engines are just off.
 */
async function missingEngine(engine: EngineName, job: CheckJob): Promise<EngineStatus> {
  const pnp = await yarnPnp(job.runtime, job.root);
  const hint = installHint(engine, pnp, await addDevCommand(job.runtime, job.root));
  if (job.explicit) return { status: "error", code: "engine_not_found", message: `engines.${engine} is enabled in signalint.config.json but ${hint}` };
  if (engine === "tsc" && (await tscApplies(job)))
    return { status: "error", code: "engine_not_found", message: `the checked files include TypeScript but ${hint}` };
  // Under Yarn Plug'n'Play an engine the project depends on is installed, and its own scripts run it: not an engine it
  // lacks, one Signalint cannot reach — never a check that passes without it.
  if (pnp && (await readManifest(job.runtime, job.root))?.dependencies.has(ENGINES[engine].pkg))
    return { status: "error", code: "engine_not_found", message: `the project depends on ${ENGINES[engine].pkg} but ${hint}` };
  return { status: "disabled", message: hint };
}

/** Names at most three failed files (with the first reason) and counts the rest. */
export function partialMessage(failures: readonly FileFailure[]): string {
  const named = failures
    .slice(0, 3)
    .map((failure) => failure.file)
    .join(", ");
  const more = failures.length > 3 ? ` and ${failures.length - 3} more` : "";
  // tsc fails by program: its failures name tsconfig files, and each stands for every file that program checks.
  const noun = failures.every((failure) => /\.json$/.test(failure.file)) ? "TypeScript program" : "file";
  return `could not check ${failures.length} ${noun}${failures.length === 1 ? "" : "s"} (${excerpt(failures[0]?.reason ?? "", 80)}): ${named}${more}`;
}

/** Resolve and run one engine; every failure becomes data in its status, never an exception. */
export async function runEngine(engine: EngineName, job: CheckJob): Promise<EngineReport> {
  // Whatever tsc's programs did not report by its end is not known (ESLint waits on it: see CheckDependents).
  const report = await resolveAndRun(engine, job).finally(() => {
    if (engine === "tsc") job.dependents?.close("tsc did not answer for every program holding the checked files");
  });
  job.onEvent?.({ kind: "engine-finished", engine, status: report.status.status, issues: report.issues.length });
  return report;
}

async function resolveAndRun(engine: EngineName, job: CheckJob): Promise<EngineReport> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const { resolved } = job;
    // Not installed: the same answer while the tree and the engine's resolution stay as they are.
    if (!resolved) return { status: await missingEngine(engine, job), issues: [], durationMs: elapsed(), reuse: { reads: [] } };
    const version = resolved.version ? { version: resolved.version } : {};
    const outcome = await run(engine, job, resolved);
    if ("status" in outcome)
      return { status: { ...outcome, ...version }, issues: [], durationMs: elapsed(), ...(outcome.status === "disabled" ? { reuse: { reads: [] } } : {}) };
    // A failed engine's coverage notes (tsc's: which framework files its failed program would have checked) are kept.
    const notChecked = "notChecked" in outcome && outcome.notChecked ? { notChecked: outcome.notChecked } : {};
    if (!outcome.ok)
      return { status: { status: "error", code: outcome.code, message: outcome.message, ...version }, issues: [], durationMs: elapsed(), ...notChecked };
    // Files the engine could not check: the check is not clean, but what it did report is kept.
    const message = "message" in outcome && outcome.message ? { message: outcome.message } : {};
    const status: EngineStatus = outcome.failures?.length
      ? { status: "error", code: "engine_partial", message: partialMessage(outcome.failures), ...version }
      : { status: "ok", ...message, ...version };
    // A partial run is never reused: the next check tries the files it could not check again.
    const reuse = "reuse" in outcome && outcome.reuse && status.status === "ok" ? { reuse: outcome.reuse } : {};
    const pending = "pending" in outcome && outcome.pending ? { pending: outcome.pending } : {};
    const dependents = "dependents" in outcome && outcome.dependents ? { dependents: outcome.dependents } : {};
    const unlinted = "unlinted" in outcome && outcome.unlinted ? { unlinted: outcome.unlinted } : {};
    const cache = outcome.cache ? { cache: outcome.cache } : {};
    return { status, issues: outcome.issues, durationMs: elapsed(), ...cache, ...notChecked, ...unlinted, ...reuse, ...pending, ...dependents };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { status: { status: "error", code: "engine_failed", message: `${engine}: ${message}` }, issues: [], durationMs: elapsed() };
  }
}
