import { isAbsolute, join, resolve } from "node:path";
import type { EngineName, EngineStatus } from "../core/contracts.ts";
import type { RawIssue } from "../core/issues.ts";
import { relativeToRoot } from "../core/paths.ts";
import { biomeAccepts, biomeArgs, parseBiomeOutput } from "../engines/biome.ts";
import { eslintAccepts, eslintArgs, parseEslintOutput } from "../engines/eslint.ts";
import { oxlintAccepts, oxlintArgs, parseOxlintOutput } from "../engines/oxlint.ts";
import { installHint, resolveEngine } from "../engines/resolve.ts";
import { parseTscOutput } from "../engines/tsc.ts";
import { nearestTsconfig, planTscRun } from "../engines/tsconfig.ts";
import { ENGINE_OUTPUT_LIMIT, type NodeCommand, type ParseOutcome, type PathMapper, type ResolvedEngine } from "../engines/types.ts";
import type { Runtime, SpawnResult } from "../runtime/types.ts";

/** What one engine contributed to a check. */
export interface EngineReport {
  status: EngineStatus;
  issues: RawIssue[];
  durationMs: number;
}

/** Inputs of one engine run. */
export interface EngineJob {
  runtime: Runtime;
  root: string;
  stateDir: string;
  /** Normalized project-relative paths ("." for the whole project). */
  paths: string[];
  timeoutMs: number;
  node: NodeCommand | null;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}

/** Map a spawn that timed out, overflowed or could not start to the engine's error status. */
function spawnFailure(engine: EngineName, result: SpawnResult, timeoutMs: number): EngineStatus | null {
  if (result.timedOut) return { status: "error", code: "timeout", message: `${engine} did not complete within ${formatSeconds(timeoutMs)}` };
  if (result.outputExceeded) return { status: "error", code: "engine_output_exceeded", message: `${engine} output exceeded the 10 MiB limit` };
  if (result.spawnError) return { status: "error", code: "engine_failed", message: `${engine} could not be started: ${result.spawnError}` };
  if (result.signal) return { status: "error", code: "engine_failed", message: `${engine} was killed by ${result.signal}` };
  return null;
}

function pathMapper(root: string, cwd: string): PathMapper {
  return (reported) => relativeToRoot(root, isAbsolute(reported) ? reported : resolve(cwd, reported));
}

async function spawnEngine(job: EngineJob, resolved: ResolvedEngine, args: string[]): Promise<SpawnResult> {
  return job.runtime.spawn(resolved.command, [...resolved.prefixArgs, ...args], {
    cwd: job.root,
    timeoutMs: job.timeoutMs,
    maxOutputBytes: ENGINE_OUTPUT_LIMIT,
    // Keep engine output plain and uncoloured.
    env: { NO_COLOR: "1", FORCE_COLOR: "0" },
  });
}

type Runner = (job: EngineJob, resolved: ResolvedEngine) => Promise<EngineStatus | ParseOutcome>;

function linterRunner(
  engine: EngineName,
  accepts: (path: string) => boolean,
  argsFor: (paths: readonly string[]) => string[],
  parse: (result: SpawnResult, toRelative: PathMapper) => ParseOutcome,
): Runner {
  return async (job, resolved) => {
    const paths = job.paths.filter(accepts);
    if (paths.length === 0) return { ok: true, issues: [] };
    const result = await spawnEngine(job, resolved, argsFor(paths));
    return spawnFailure(engine, result, job.timeoutMs) ?? parse(result, pathMapper(job.root, job.root));
  };
}

const runTsc: Runner = async (job, resolved) => {
  const configs = new Set<string>();
  for (const path of job.paths) {
    const start = path === "." ? job.root : join(job.root, path);
    const info = await job.runtime.stat(start);
    const config = await nearestTsconfig(job.runtime, job.root, info?.isDirectory ? start : join(start, ".."));
    if (config) configs.add(config);
  }
  if (configs.size === 0) return { status: "disabled", message: "no tsconfig.json at or above the checked paths (within the project root)" };
  const issues: RawIssue[] = [];
  for (const tsconfig of configs) {
    const plan = await planTscRun(job.runtime, { root: job.root, tsconfig, stateDir: job.stateDir });
    const result = await spawnEngine(job, resolved, plan.args);
    const failure = spawnFailure("tsc", result, job.timeoutMs);
    if (failure) return failure;
    const parsed = parseTscOutput(result, pathMapper(job.root, job.root), plan.configFile);
    if (!parsed.ok) return parsed;
    issues.push(...parsed.issues);
  }
  return { ok: true, issues };
};

const RUNNERS: Record<EngineName, Runner> = {
  oxlint: linterRunner("oxlint", oxlintAccepts, oxlintArgs, parseOxlintOutput),
  tsc: runTsc,
  biome: linterRunner("biome", biomeAccepts, biomeArgs, parseBiomeOutput),
  eslint: linterRunner("eslint", eslintAccepts, eslintArgs, parseEslintOutput),
};

/** Resolve and run one engine; every failure becomes data in its status, never an exception. */
export async function runEngine(engine: EngineName, job: EngineJob): Promise<EngineReport> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const resolved = await resolveEngine(job.runtime, engine, { root: job.root, node: job.node });
    if (!resolved) return { status: { status: "disabled", message: installHint(engine) }, issues: [], durationMs: elapsed() };
    const version = resolved.version ?? undefined;
    const outcome = await RUNNERS[engine](job, resolved);
    if ("status" in outcome) return { status: { ...outcome, ...(version ? { version } : {}) }, issues: [], durationMs: elapsed() };
    if (!outcome.ok) return { status: { status: "error", code: outcome.code, message: outcome.message, ...(version ? { version } : {}) }, issues: [], durationMs: elapsed() };
    return { status: { status: "ok", ...(version ? { version } : {}) }, issues: outcome.issues, durationMs: elapsed() };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { status: { status: "error", code: "engine_failed", message: `${engine}: ${message}` }, issues: [], durationMs: elapsed() };
  }
}
