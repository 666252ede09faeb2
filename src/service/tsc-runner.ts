import { join, relative, resolve } from "node:path";
import type { RawIssue } from "../core/issues.ts";
import { diagnosticsToIssues, type WarmCheckInfo } from "../typescript/warm-program.ts";
import { ts7DiagnosticsToIssues } from "../typescript/warm-program7.ts";
import { nearestTsconfig, planTscRun } from "../engines/tsconfig.ts";
import { tscListFilesArgs, tscProjectArgs } from "../engines/tsc.ts";
import type { ParseOutcome, ResolvedEngine } from "../engines/types.ts";
import { throwIfCancelled } from "./check-events.ts";
import type { EngineCache, EngineJob, RunnerOutcome } from "./engine-runner.ts";
import { candidateFiles, isTypeScriptFile, writeInferredConfig } from "./tsc-coverage.ts";
import { MAX_WARM_PROGRAMS } from "../typescript/warm-pool.ts";

/** Projects whose cold tsc run takes longer than this get no warm program. */
export const WARM_UP_MAX_COLD_MS = 15_000;

/** Directories never searched for nested tsconfigs. */
const SKIPPED_DIRS = new Set(["node_modules", "dist", "build", "out", "coverage"]);

/**
 * The topmost tsconfig.json files below a directory that has none of its own (a monorepo without a root config):
 * the search stops descending where it finds one, and goes at most four levels deep.
 */
async function nestedTsconfigs(job: EngineJob, dir: string): Promise<string[]> {
  const found: string[] = [];
  let level = [dir];
  for (let depth = 0; depth < 4 && level.length; depth++) {
    const next: string[] = [];
    for (const current of level) {
      const entries = await job.runtime.readDir(current).catch(() => []);
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
async function configsFor(job: EngineJob): Promise<Set<string>> {
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

/** One tsconfig through the warm program; null when it cannot serve (no API, references, or it failed). */
async function checkWarm(
  job: EngineJob,
  packageDir: string,
  tsconfig: string,
  configFile: string,
): Promise<{ issues: RawIssue[]; cache: EngineCache; files: string[] } | null> {
  try {
    const warm = job.warm.ready(packageDir, tsconfig);
    if (!warm) return null;
    // The warm check is synchronous and cannot be interrupted: never start it for a cancelled check.
    throwIfCancelled(job.signal);
    job.onEvent?.({ kind: "tsc-phase", phase: "warm check", tsconfig: relative(job.root, tsconfig) || tsconfig });
    let issues: RawIssue[];
    let info: WarmCheckInfo;
    if (warm.kind === "ts5") {
      const result = warm.program.check();
      // References added or removed: the next warm-up builds the other kind (a solution or a single program).
      if (!result) {
        job.warm.discard(packageDir, tsconfig);
        return null;
      }
      issues = diagnosticsToIssues(warm.program.ts, result.diagnostics, job.toRelative, configFile);
      info = result.info;
    } else {
      const result = warm.program.check();
      issues = ts7DiagnosticsToIssues(result.diagnostics, job.toRelative, configFile);
      info = result.info;
    }
    const cache = { hits: Math.max(0, info.programFiles - info.changedFiles), misses: info.changedFiles, mode: `warm-${info.reuse}` };
    return { issues, cache, files: warm.program.fileNames() };
  } catch (error) {
    if (job.signal?.aborted) throw error;
    job.warm.discard(packageDir, tsconfig);
    job.runtime.writeStderr(`signalint: warm TypeScript program for ${tsconfig} failed, running tsc instead: ${(error as Error).stack ?? error}\n`);
    return null;
  }
}

/**
 * The tsconfigs to add to `base` and the files no tsconfig covers: the config that covers each TS/JS file under the
 * checked paths, unless a config of `base` already reaches it through references.
 */
async function planExtras(
  job: EngineJob,
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
async function listProgramFiles(job: EngineJob, resolved: ResolvedEngine, tsconfigs: readonly string[]): Promise<string[]> {
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

/** True when tsc applies to the checked paths: a tsconfig covers them or they include TypeScript files. */
export async function tscApplies(job: EngineJob): Promise<boolean> {
  return (await configsFor(job)).size > 0 || (await candidateFiles(job)).some(isTypeScriptFile);
}

/**
 * tsc over every tsconfig the paths belong to, and an inferred program (TypeScript's defaults, as editors use) over
 * the TS/JS files no tsconfig covers. Configs are checked by a warm program (TypeScript 5.x/6.x in process, a warm
 * solution for configs with references; TypeScript 7 in a warm tsgo process driven through its API, references
 * excepted); TypeScript 7 references, and any project whose warm program is not built yet (it is built in the
 * background right after) or unavailable, run the command line (solutions with incremental build info in the cache
 * directory). Either way the whole program is checked, so a change in any file it reads is seen.
 */
export async function runTsc(
  job: EngineJob,
  resolved: ResolvedEngine,
  spawn: (args: string[], configFile: string) => Promise<ParseOutcome>,
): Promise<RunnerOutcome> {
  const base = [...(await configsFor(job))];
  // Which files the configs cover is worked out (a tsc --showConfig per new config) while the base configs run.
  const extras = planExtras(job, resolved, base);
  extras.catch(() => {});
  const issues: RawIssue[] = [];
  const cache: EngineCache = { hits: 0, misses: 0 };
  const modes = new Set<string>();
  let inferred: string | null = null;
  let inferredFiles = new Set<string>();
  // What the programs read (warm programs know it; command-line runs are asked only when it matters, see below).
  const programFiles = new Set<string>();
  const listLater: string[] = [];
  let listReached = false;
  const runOne = async (tsconfig: string, slots: number): Promise<ParseOutcome | null> => {
    // More tsconfigs than warm slots would only evict each other: those checks use the command line.
    const packageDir = job.warmTypeScript && slots <= MAX_WARM_PROGRAMS ? resolved.packageDir : null;
    // Only the inferred program's own files are its findings: files it imports belong to their tsconfig's program.
    const own = (found: RawIssue[]) => (tsconfig === inferred ? found.filter((issue) => inferredFiles.has(issue.file)) : found);
    const plan =
      tsconfig === inferred
        ? { args: tscProjectArgs(tsconfig), configFile: "tsconfig.json (inferred)", buildMode: false }
        : await planTscRun(job.runtime, { root: job.root, tsconfig, cacheDir: job.cacheDir });
    // Build mode is a warm solution with TypeScript 5.x/6.x; TypeScript 7's API cannot build: the command line serves.
    const warmable = packageDir && (!plan.buildMode || Number(resolved.version?.split(".")[0]) < 7) ? packageDir : null;
    // The warm check blocks this thread: let the linters start their processes first so they run alongside it.
    if (warmable) await job.lintersDispatched;
    const warm = warmable ? await checkWarm(job, warmable, tsconfig, plan.configFile) : null;
    if (warm) {
      for (const file of warm.files) programFiles.add(resolve(file));
      issues.push(...own(warm.issues));
      cache.hits += warm.cache.hits;
      cache.misses += warm.cache.misses;
      modes.add(warm.cache.mode as string);
      return null;
    }
    throwIfCancelled(job.signal);
    job.onEvent?.({ kind: "tsc-phase", phase: plan.buildMode ? "build" : "command line", tsconfig: relative(job.root, tsconfig) || tsconfig });
    const started = performance.now();
    const parsed = await spawn(plan.args, plan.configFile);
    if (!parsed.ok) return parsed;
    // Building the warm program blocks the server about as long as a cold check: only do it for projects that check
    // quickly enough; bigger ones keep the command line, whose timeout is enforced.
    if (warmable && performance.now() - started <= WARM_UP_MAX_COLD_MS) job.warm.warmUpLater(warmable, tsconfig);
    issues.push(...own(parsed.issues));
    // A solution's programs are the configs its references reach.
    if (tsconfig !== inferred) listLater.push(...(plan.buildMode ? [] : [tsconfig]));
    if (plan.buildMode) listReached = true;
    modes.add(plan.buildMode ? "build-incremental" : "cli");
    return null;
  };
  for (const tsconfig of base) {
    const failed = await runOne(tsconfig, base.length);
    if (failed) return failed;
  }
  const { configs, uncovered: notIncluded, reached } = await extras;
  if (base.length + configs.length === 0 && notIncluded.length === 0)
    return { status: "disabled", message: "no tsconfig.json and no TypeScript or JavaScript files under the checked paths" };
  const slots = base.length + configs.length + (notIncluded.length ? 1 : 0);
  for (const tsconfig of configs) {
    const failed = await runOne(tsconfig, slots);
    if (failed) return failed;
  }
  // A file no tsconfig includes but one of the programs imports is that program's file (editors check it there too).
  const toList = [...listLater, ...(listReached ? reached : [])];
  if (notIncluded.length && toList.length) for (const file of await listProgramFiles(job, resolved, toList)) programFiles.add(file);
  const uncovered = notIncluded.filter((file) => !programFiles.has(resolve(file)));
  if (uncovered.length) {
    inferred = await writeInferredConfig(job, resolved, uncovered);
    inferredFiles = new Set(uncovered.flatMap((file) => job.toRelative(file) ?? []));
    const failed = await runOne(inferred, slots);
    if (failed) return failed;
  }
  const message = inferred ? `inferred program (TypeScript defaults, allowJs) for ${uncovered.length} file(s) no tsconfig covers` : undefined;
  return { ok: true, issues, cache: { ...cache, mode: [...modes].join("+") }, ...(message ? { message } : {}) };
}
