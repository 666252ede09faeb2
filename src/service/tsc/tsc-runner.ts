import { join, relative, resolve } from "node:path";
import type { RawIssue } from "../../core/issues.ts";
import { nearestTsconfig, planTscRun, type TscRun } from "../../engines/tsconfig.ts";
import { outsideConfigIssue, tscListFilesArgs, tscProjectArgs, type OutsideConfigs } from "../../engines/tsc.ts";
import type { ParseOutcome, ResolvedEngine } from "../../engines/types.ts";
import { CheckCancelledError, throwIfCancelled } from "../check/check-events.ts";
import type { EngineCache, EngineJob, RunnerOutcome } from "../check/engine-job.ts";
import { candidateFiles, isTypeScriptFile, writeInferredConfig, type TsconfigCoverage } from "./tsc-coverage.ts";
import type { ChangeHint } from "../../typescript/change-hint.ts";
import type { WarmTsPool } from "../../typescript/warm-pool.ts";
import { MAX_WARM_PROGRAMS } from "../../typescript/warm-pool.ts";
import { ifMissing } from "../../core/errors.ts";

/** A tsc run's inputs: the common job plus tsconfig coverage, the warm pool and the watch's hint. */
export interface TscJob extends EngineJob {
  /** Which files each tsconfig covers (cached across checks). */
  tsconfigs: TsconfigCoverage;
  warm: WarmTsPool;
  /** What the file watch saw change (after a fence), for warm programs; null: they re-stat everything. */
  changeHint?: ChangeHint | null;
  /** False turns the in-process TypeScript program off (the command line is used). */
  warmTypeScript: boolean;
  /** Bound on one warm program's host process, in MB (signalint.config.json warmTypeScriptMemoryMB). */
  warmMemoryMB: number;
}

/** Directories never searched for nested tsconfigs. */
const SKIPPED_DIRS = new Set(["node_modules", "dist", "build", "out", "coverage"]);

/**
 * The topmost tsconfig.json files below a directory that has none of its own (a monorepo without a root config):
 * the search stops descending where it finds one, and goes at most four levels deep.
 */
async function nestedTsconfigs(job: TscJob, dir: string): Promise<string[]> {
  const found: string[] = [];
  let level = [dir];
  for (let depth = 0; depth < 4 && level.length; depth++) {
    const next: string[] = [];
    for (const current of level) {
      const entries = await job.runtime.readDir(current).catch(ifMissing([]));
      if (depth > 0 && entries.some((entry) => entry.isFile && entry.name === "tsconfig.json")) {
        found.push(join(current, "tsconfig.json"));
        continue;
      }
      for (const entry of entries) {
        if (entry.isDirectory && !entry.name.startsWith(".") && !SKIPPED_DIRS.has(entry.name) && join(current, entry.name) !== job.stateDir)
          next.push(join(current, entry.name));
      }
    }
    level = next;
  }
  return found.sort();
}

/**
 * The tsconfigs that cover the checked paths: the nearest one at or above each path (never above the root); for a
 * directory with none, the topmost ones below it.
 */
async function configsFor(job: TscJob): Promise<Set<string>> {
  const configs = new Set<string>();
  for (const path of job.paths) {
    const start = path === "." ? job.root : join(job.root, path);
    const info = await job.runtime.stat(start);
    const config = await nearestTsconfig(job.runtime, job.root, info?.isDirectory ? start : join(start, ".."));
    if (config) configs.add(config);
    else if (info?.isDirectory) for (const nested of await nestedTsconfigs(job, start)) configs.add(nested);
  }
  return configs;
}

/** Config files outside the root are reported on the in-root config that extends them (else the checked one). */
function outsideConfigs(job: TscJob, plan: TscRun): OutsideConfigs {
  return (reported) => {
    const absolute = resolve(job.root, reported);
    const owner = plan.leadsTo.get(absolute);
    return { file: owner ? relative(job.root, owner).replace(/\\/g, "/") : plan.configFile, shown: relative(job.root, absolute).replace(/\\/g, "/") };
  };
}

/** A warm answer, a failure to report as the command line's would be (timeout), or null: run the command line. */
type WarmResult = { issues: RawIssue[]; cache: EngineCache; files: string[] } | ParseOutcome | null;

/**
 * One tsconfig through its warm program, in its host process (built there by the first check of the config). Why a
 * program is not warm any more (released over the memory bound, its host failing) goes to `released`.
 */
async function checkWarm(job: TscJob, packageDir: string, tsconfig: string, plan: TscRun, released: Set<string>): Promise<WarmResult> {
  throwIfCancelled(job.signal);
  job.onEvent?.({ kind: "tsc-phase", phase: "warm check", tsconfig: relative(job.root, tsconfig) || tsconfig });
  const outside = outsideConfigs(job, plan);
  const outcome = await job.warm.check({
    kind: plan.buildMode ? "solution" : "project",
    typescriptDir: packageDir,
    configPath: tsconfig,
    configFile: plan.configFile,
    outside: (issue, file) => outsideConfigIssue(issue, file, outside),
    timeoutMs: job.timeoutMs,
    memoryLimitBytes: job.warmMemoryMB * 1024 ** 2,
    signal: job.signal,
    toRelative: job.toRelative,
    hint: job.changeHint ?? null,
  });
  if (outcome.status === "cancelled") throw new CheckCancelledError();
  if (outcome.status === "timeout") {
    const seconds = job.timeoutMs / 1000;
    return { ok: false, code: "timeout", message: `tsc did not complete within ${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)}s` };
  }
  if (outcome.status !== "ok") {
    if (outcome.reason) released.add(outcome.reason);
    return null;
  }
  const { info } = outcome;
  const cache = { hits: Math.max(0, info.programFiles - info.changedFiles), misses: info.changedFiles, mode: `warm-${info.reuse}` };
  return { issues: outcome.issues, cache, files: outcome.files };
}

/**
 * The tsconfigs to add to `base` and the files no tsconfig covers: the config that covers each TS/JS file under the
 * checked paths, unless a config of `base` already reaches it through references.
 */
async function planExtras(
  job: TscJob,
  resolved: ResolvedEngine,
  base: readonly string[],
): Promise<{ configs: string[]; uncovered: string[]; reached: string[] }> {
  const { covering, uncovered, scope } = await job.tsconfigs.classify(job, resolved, await candidateFiles(job));
  const reached = new Set<string>();
  for (const config of base) for (const reachable of await job.tsconfigs.closure(job, resolved, config, scope)) reached.add(reachable);
  return { configs: [...covering].sort().filter((config) => !reached.has(config)), uncovered, reached: [...reached] };
}

/**
 * Every file of the programs of these tsconfigs (`tsc --listFilesOnly`, in parallel; a solution config lists its
 * references' files through the configs it reaches). A listing that fails adds nothing: its files stay uncovered.
 */
async function listProgramFiles(job: TscJob, resolved: ResolvedEngine, tsconfigs: readonly string[]): Promise<string[]> {
  const listings = await Promise.all(
    tsconfigs.map(async (tsconfig) => {
      const result = await job.runtime.spawn(resolved.command, [...resolved.prefixArgs, ...tscListFilesArgs(tsconfig)], {
        cwd: job.root,
        timeoutMs: job.timeoutMs,
        maxOutputBytes: 64 * 1024 * 1024,
        env: { NO_COLOR: "1", FORCE_COLOR: "0" },
        signal: job.signal,
      });
      return result.stdout
        .split(/\r?\n/)
        .filter((line) => /^(\/|[A-Za-z]:[\\/])/.test(line) && !/\(\d+,\d+\): /.test(line))
        .map((line) => resolve(line.trim()));
    }),
  );
  return listings.flat();
}

/**
 * True for a TypeScript whose `tsc -b` a warm solution reproduces: 5.6 and later 5.x/6.x (earlier ones skipped the
 * projects downstream of one with errors; TypeScript 7's API has no build mode).
 */
function solutionsWarm(version: string | null): boolean {
  const [major = 0, minor = 0] = (version ?? "").split(".").map(Number);
  return (major === 5 && minor >= 6) || major === 6;
}

/**
 * The compiler module the output overlay loads (tsconfig.ts): TypeScript 5.x/6.x (JavaScript, with the build API the
 * overlay uses) run through node; null otherwise (TypeScript 7 is native: generated configs serve).
 */
function overlayCompiler(resolved: ResolvedEngine): string | null {
  const major = Number((resolved.version ?? "").split(".")[0]);
  const throughNode = resolved.prefixArgs.at(-1) === resolved.path;
  return resolved.packageDir && throughNode && (major === 5 || major === 6) ? join(resolved.packageDir, "lib", "typescript.js") : null;
}

/** True when tsc applies to the checked paths: a tsconfig covers them or they include TypeScript files. */
export async function tscApplies(job: TscJob): Promise<boolean> {
  return (await configsFor(job)).size > 0 || (await candidateFiles(job)).some(isTypeScriptFile);
}

/**
 * The findings of every tsconfig that answered; a failure of its own only when none did. The configs that failed
 * (a timeout) are named as failures, so tsc is `engine_partial` rather than clean.
 */
function combine(outcomes: readonly [string, ParseOutcome][], label: (tsconfig: string) => string): ParseOutcome {
  const failed = outcomes.flatMap(([tsconfig, outcome]) => (outcome.ok ? [] : [{ file: label(tsconfig), outcome }]));
  if (failed.length && failed.length === outcomes.length) return failed[0]?.outcome as ParseOutcome;
  const issues = outcomes.flatMap(([, outcome]) => (outcome.ok ? outcome.issues : []));
  const failures = failed.map(({ file, outcome }) => ({ file, reason: outcome.ok ? "" : outcome.message }));
  return { ok: true, issues, ...(failures.length ? { failures } : {}) };
}

/**
 * tsc over every tsconfig the paths belong to (in parallel), and an inferred program (TypeScript's defaults, as
 * editors use) over the TS/JS files no tsconfig covers. Each config is checked by a warm program in its host process,
 * which the first check of the config builds: TypeScript 5.x/6.x through the compiler API, TypeScript 7 in a warm
 * tsgo process driven through its API; configs with references are a warm `tsc -b` (a solution) from TypeScript 5.6
 * on, and a package config a hosted solution already built is a view of it in that host. TypeScript 7 and older
 * references, and any project whose warm program is unavailable, run the command line (solutions with incremental
 * build info in the cache directory). Either way the whole program is checked, so a change in any file it reads is
 * seen.
 */
export async function runTsc(
  job: TscJob,
  resolved: ResolvedEngine,
  spawn: (args: string[], configFile: string, options: { entry?: string; outside?: OutsideConfigs }) => Promise<ParseOutcome>,
): Promise<RunnerOutcome> {
  const base = [...(await configsFor(job))];
  // Which files the configs cover is worked out (a tsc --showConfig per new config) while the base configs run.
  const extras = planExtras(job, resolved, base);
  extras.catch(() => {});
  const cache: EngineCache = { hits: 0, misses: 0 };
  const released = new Set<string>();
  const modes = new Set<string>();
  let inferred: string | null = null;
  let inferredFiles = new Set<string>();
  // What the programs read (warm programs know it; command-line runs are asked only when it matters, see below).
  const programFiles = new Set<string>();
  const listLater: string[] = [];
  let listReached = false;
  const runOne = async (tsconfig: string, slots: number): Promise<ParseOutcome> => {
    // More tsconfigs than warm slots would only evict each other: those checks use the command line.
    const packageDir = job.warmTypeScript && slots <= MAX_WARM_PROGRAMS ? resolved.packageDir : null;
    // Only the inferred program's own files are its findings: files it imports belong to their tsconfig's program.
    const own = (found: RawIssue[]) => (tsconfig === inferred ? found.filter((issue) => inferredFiles.has(issue.file)) : found);
    const plan: TscRun =
      tsconfig === inferred
        ? { args: tscProjectArgs(tsconfig), configFile: "tsconfig.json (inferred)", buildMode: false, leadsTo: new Map() }
        : await planTscRun(job.runtime, { root: job.root, tsconfig, cacheDir: job.cacheDir, overlayCompiler: overlayCompiler(resolved) });
    // Build mode is a warm solution from TypeScript 5.6 on (TypeScript 7's API cannot build: the command line serves).
    const warmable = packageDir && (!plan.buildMode || solutionsWarm(resolved.version)) ? packageDir : null;
    const warm = warmable ? await checkWarm(job, warmable, tsconfig, plan, released) : null;
    if (warm && !("ok" in warm)) {
      for (const file of warm.files) programFiles.add(resolve(file));
      cache.hits += warm.cache.hits;
      cache.misses += warm.cache.misses;
      modes.add(warm.cache.mode as string);
      return { ok: true, issues: own(warm.issues) };
    }
    if (warm) return warm;
    throwIfCancelled(job.signal);
    job.onEvent?.({ kind: "tsc-phase", phase: plan.buildMode ? "build" : "command line", tsconfig: relative(job.root, tsconfig) || tsconfig });
    const parsed = await spawn(plan.args, plan.configFile, { ...(plan.entry ? { entry: plan.entry } : {}), outside: outsideConfigs(job, plan) });
    if (!parsed.ok) return parsed;
    // A solution's programs are the configs its references reach.
    if (tsconfig !== inferred) listLater.push(...(plan.buildMode ? [] : [tsconfig]));
    if (plan.buildMode) listReached = true;
    modes.add(plan.buildMode ? "build-incremental" : "cli");
    return { ok: true, issues: own(parsed.issues) };
  };
  // Each tsconfig's findings, in config order; a config that failed leaves the others' findings standing.
  const outcomes: [string, ParseOutcome][] = [];
  const runAll = async (tsconfigs: readonly string[], slots: number) => {
    const done = await Promise.all(tsconfigs.map(async (tsconfig) => [tsconfig, await runOne(tsconfig, slots)] as [string, ParseOutcome]));
    outcomes.push(...done);
  };
  await runAll(base, base.length);
  const { configs, uncovered: notIncluded, reached } = await extras;
  if (base.length + configs.length === 0 && notIncluded.length === 0)
    return { status: "disabled", message: "no tsconfig.json and no TypeScript or JavaScript files under the checked paths" };
  const slots = base.length + configs.length + (notIncluded.length ? 1 : 0);
  await runAll(configs, slots);
  // A file no tsconfig includes but one of the programs imports is that program's file (editors check it there too).
  const toList = [...listLater, ...(listReached ? reached : [])];
  if (notIncluded.length && toList.length) for (const file of await listProgramFiles(job, resolved, toList)) programFiles.add(file);
  const uncovered = notIncluded.filter((file) => !programFiles.has(resolve(file)));
  if (uncovered.length) {
    inferred = await writeInferredConfig(job, resolved, uncovered);
    inferredFiles = new Set(uncovered.flatMap((file) => job.toRelative(file) ?? []));
    await runAll([inferred], slots);
  }
  const combined = combine(outcomes, (tsconfig) => (tsconfig === inferred ? "tsconfig.json (inferred)" : (job.toRelative(tsconfig) ?? tsconfig)));
  if (!combined.ok) return combined;
  const notes = [
    ...(inferred ? [`inferred program (TypeScript defaults, allowJs) for ${uncovered.length} file(s) no tsconfig covers`] : []),
    // A program no longer warm answers through the command line (exact, only slower): said where the answer is.
    ...[...released].map((reason) => `command line: ${reason}`),
  ];
  const message = notes.length ? notes.join("; ") : undefined;
  return { ...combined, cache: { ...cache, mode: [...modes].join("+") }, ...(message ? { message } : {}) };
}
