import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import type { Pending } from "../../core/contracts.ts";
import type { RawIssue } from "../../core/issues.ts";
import { planTscRun, tscWorkDir, type TscRun } from "../../engines/tsconfig.ts";
import { forgetBuildsAfterDeletions } from "./stale-builds.ts";
import { missingGenerated } from "../../engines/generated-configs.ts";
import { vueTscGuard } from "../../engines/vue-tsc-guard.ts";
import { runSvelteCheck, withoutGeneratedGaps } from "./framework-runs.ts";
import { outsideRootIssue, tscListFilesArgs, tscProjectArgs, type OutsideRoot } from "../../engines/tsc.ts";
import { outsideRoot } from "./outside-root.ts";
import type { ParseOutcome, ResolvedEngine } from "../../engines/types.ts";
import type { SpawnResult } from "../../runtime/types.ts";
import { CheckCancelledError, throwIfCancelled } from "../job/check-events.ts";
import type { EngineCache, EngineJob, Reuse, RunnerOutcome } from "../job/engine-job.ts";
import { candidateFiles, checkedFiles, isTypeScriptFile, writeInferredConfig, type TsconfigCoverage } from "./tsc-coverage.ts";
import { choosePrograms, describePrograms, type ProgramChoice } from "./tsc-programs.ts";
import { coverageNotes, selectRuns, type ProgramRun } from "./tsc-selection.ts";
import { majorVersion, resolveEngine, resolveTypeChecker } from "../../engines/resolve.ts";
import type { ChangeHint } from "../../typescript/change-hint.ts";
import type { WarmRequest, WarmTsPool } from "../../typescript/warm-pool.ts";
import { dependentsSeen, dependentsUnknown, namedThenWhole, type NamedFirst } from "./named-first.ts";
import { combine, overlayCompiler, withFixMarks } from "./tsc-outcomes.ts";
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
  /** Extra tsconfigs the project checks (signalint.config.json typescript.projects, root-relative). */
  typescriptProjects: readonly string[];
  /**
   * check_files: warm programs answer these files (absolute) first, and a program whose whole re-check has not ended
   * by `deadline` (performance.now()) is left `pending`, its re-check going on in its host (see NamedFirst).
   */
  namedFirst?: NamedFirst | null;
}

/** The programs and engine-neutral inputs a check's tsc run needs from its configuration. */
async function chooseFor(job: TscJob): Promise<ProgramChoice> {
  return choosePrograms(job.runtime, job.root, { stateDir: job.stateDir, configured: job.typescriptProjects });
}

/** tsc runs of one check allowed at once however few CPUs there are (three warm programs ran in parallel before). */
const MIN_TSC_SLOTS = 3;

/**
 * How many tsc runs (warm checks or processes) of one check go at once: one per CPU, at least MIN_TSC_SLOTS. A
 * monorepo's 32 programs started together on 2 CPUs overran the timeout in 12 of them (trpc/trpc); each run's
 * timeout starts at its own start, so a queued run loses no time.
 */
function tscSlots(job: TscJob): number {
  return Math.max(MIN_TSC_SLOTS, job.runtime.cpuCount);
}

/** fn over items with at most `limit` calls pending at once; results in the items' order. */
async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** A warm answer (`pending`: of the named files only), a failure to report as the command line's would be (timeout), or null: run the command line. */
type WarmResult = { issues: RawIssue[]; cache: EngineCache; files: string[]; pending?: number } | ParseOutcome | null;

/**
 * One tsconfig through its warm program, in its host process (built there by the first check of the config). Why a
 * program is not warm any more (released over the memory bound, its host failing) goes to `released`.
 */
async function checkWarm(job: TscJob, packageDir: string, tsconfig: string, plan: TscRun, released: Set<string>, vue = false): Promise<WarmResult> {
  throwIfCancelled(job.signal);
  job.onEvent?.({ kind: "tsc-phase", phase: "warm check", tsconfig: relative(job.root, tsconfig) || tsconfig });
  const outside = outsideRoot(job, plan.configFile, plan.leadsTo);
  const request: WarmRequest = {
    kind: vue ? "vue" : plan.buildMode ? "solution" : "project",
    typescriptDir: packageDir,
    configPath: tsconfig,
    configFile: plan.configFile,
    outside: (issue, file) => outsideRootIssue(issue, file, outside),
    timeoutMs: job.timeoutMs,
    memoryLimitBytes: job.warmMemoryMB * 1024 ** 2,
    signal: job.signal,
    toRelative: job.toRelative,
    hint: job.changeHint ?? null,
    ...(job.dependents ? { dependentsOf: [...job.dependents.named] } : {}),
  };
  // A solution, and a one-shot process (nobody would finish its re-check), answer whole.
  const first = !plan.buildMode && !job.warm.oneShot ? job.namedFirst : null;
  // The files importing the named ones come with the program's first answer (a plain TypeScript 5/6 program's only).
  const outcome = await namedThenWhole(job.warm, request, first, (answer) => dependentsSeen(job, tsconfig, answer, plan.buildMode));
  if (outcome.status === "cancelled") throw new CheckCancelledError();
  if (outcome.status === "timeout") {
    const seconds = job.timeoutMs / 1000;
    return {
      ok: false,
      code: "timeout",
      message: `${vue ? "vue-tsc" : "tsc"} did not complete within ${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)}s (timeoutsMs.tsc in signalint.config.json raises the limit)`,
    };
  }
  if (outcome.status !== "ok") {
    if (outcome.reason) released.add(outcome.reason);
    return null;
  }
  const { info } = outcome;
  // A full build checked every file (found on Zod: a cold build reported every file a hit).
  const misses = info.reuse === "full" ? info.programFiles : info.changedFiles;
  const cache = { hits: Math.max(0, info.programFiles - misses), misses, mode: `warm-${info.reuse}` };
  return { issues: outcome.issues, cache, files: outcome.files, ...(outcome.pending !== undefined ? { pending: outcome.pending } : {}) };
}

/**
 * Every file of the programs of these tsconfigs (`tsc --listFilesOnly`, in parallel; a solution config lists its
 * references' files through the configs it reaches). A listing that fails adds nothing: its files stay uncovered.
 */
async function listProgramFiles(job: TscJob, resolved: ResolvedEngine, tsconfigs: readonly string[]): Promise<string[]> {
  const listings = await mapBounded(tsconfigs, tscSlots(job), async (tsconfig) => {
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
  });
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

/** True when tsc applies to the checked paths: the project checks a tsconfig or they include TypeScript files. */
export async function tscApplies(job: TscJob): Promise<boolean> {
  return (await chooseFor(job)).programs.length > 0 || (await candidateFiles(job)).some(isTypeScriptFile);
}

/** How one config is spawned on the command line: its argv, config name and the type-checker (tsc unless vue-tsc). */
export type TscSpawn = (
  args: string[],
  configFile: string,
  options: { checker?: ResolvedEngine; entry?: string; outside?: OutsideRoot; parse?: (result: SpawnResult) => ParseOutcome },
) => Promise<ParseOutcome>;

/** What the programs of one check share while they run. */
interface RunState {
  cache: EngineCache;
  modes: Set<string>;
  /** Every file the programs read (warm programs say; command-line runs are listed only when it matters). */
  programFiles: Set<string>;
  /** Command-line configs whose programs were not listed yet. */
  listLater: string[];
  /** Why programs are not warm any more (released over the memory bound, a failing host): said in engines.tsc. */
  released: Set<string>;
  /** Set to the inferred program's config and files in a project without any tsconfig. */
  inferred: { config: string; files: Set<string> } | null;
  /** Warm programs that answered only the named files, and their other files (see NamedFirst). */
  pending?: Pending;
  /** The configs a framework checker (vue-tsc, svelte-check) answered for: their .vue / .svelte files were checked. */
  checkerAnswered: Set<string>;
}

/**
 * One config: its warm program in a host (built there by its first check; configs with references are a warm
 * `tsc -b` from TypeScript 5.6 on; vue-tsc's in vue-tsc's compiler), else the command line.
 */
async function runOne(job: TscJob, root: ResolvedEngine, run: ProgramRun & { slot: number; spawn: TscSpawn; state: RunState }): Promise<ParseOutcome> {
  const { config: tsconfig, slot, spawn, state } = run;
  const inferred = state.inferred?.config === tsconfig ? state.inferred : null;
  // A `tsgo` script runs TypeScript 7's preview compiler where it is installed (command line: no warm program);
  // else the project's TypeScript, as before the preview existed.
  const tsgo = !inferred && run.tool === "tsgo" ? await resolveTypeChecker(job.runtime, "tsgo", { start: dirname(tsconfig), node: job.node }) : null;
  const resolved = tsgo ?? (inferred || (run.tool !== "tsc" && run.tool !== "tsgo") ? root : await programCompiler(job, root, tsconfig));
  // Every program is warm up to the pool's capacity; the ones past it (in the check's stable order) use the command
  // line rather than evict each other's hosts at every check.
  const standIn = run.tool === "vue-tsc" || run.tool === "svelte-check";
  const packageDir = job.warmTypeScript && slot < job.warm.capacity && !standIn ? resolved.packageDir : null;
  // Only the inferred program's own files are its findings: files it imports belong to their tsconfig's program.
  const own = (found: RawIssue[]) => (inferred ? found.filter((issue) => inferred.files.has(issue.file)) : found);
  const checker = standIn ? await resolveTypeChecker(job.runtime, run.tool, { start: dirname(tsconfig), node: job.node }) : null;
  // A framework checker is warm in a host like tsc's programs (not for a one-shot process's single answer), where the
  // host runs on the node its command line runs on (svelte.config.ts, ESM, Volar's loading of TypeScript follow it).
  const warmChecker =
    !!checker?.packageDir && job.warmTypeScript && slot < job.warm.capacity && !job.warm.oneShot && job.node?.command === job.runtime.execPath;
  if (checker && run.tool === "svelte-check") {
    const pool = { pool: job.warm, hint: job.changeHint ?? null, memoryLimitBytes: job.warmMemoryMB * 1024 ** 2 };
    const { outcome, mode } = await runSvelteCheck(job, tsconfig, checker, spawn, warmChecker ? pool : null);
    if (!outcome.ok) return outcome;
    state.listLater.push(tsconfig);
    state.modes.add(mode);
    state.checkerAnswered.add(tsconfig);
    return outcome;
  }
  // A vue-tsc program is the user's config run `-p` like tsc's (its build info and profiles moved out of the tree too).
  const planned = () =>
    planTscRun(job.runtime, {
      root: job.root,
      tsconfig,
      cacheDir: job.cacheDir,
      overlayCompiler: overlayCompiler(resolved),
      ...(checker ? { checker: run.tool } : {}),
    });
  let plan: TscRun = inferred
    ? { args: tscProjectArgs(tsconfig), configFile: "tsconfig.json (inferred)", buildMode: false, leadsTo: new Map() }
    : await planned();
  // Build mode is a warm solution from TypeScript 5.6 on (TypeScript 7's API cannot build); vue-tsc's is its compiler's.
  const vue = warmChecker && run.tool === "vue-tsc" && !plan.buildMode ? checker?.packageDir : null;
  const warmable = vue ?? (packageDir && (!plan.buildMode || solutionsWarm(resolved.version)) ? packageDir : null);
  // The inferred program answers whole (its findings are filtered to its own files).
  const warm = warmable ? await checkWarm(inferred ? { ...job, namedFirst: null } : job, warmable, tsconfig, plan, state.released, !!vue) : null;
  if (warm && !("ok" in warm)) {
    const files = warm.files.map((file) => resolve(file));
    for (const file of files) state.programFiles.add(file);
    if (!inferred) job.tsconfigs.rememberProgram(tsconfig, files);
    state.cache.hits += warm.cache.hits;
    state.cache.misses += warm.cache.misses;
    state.modes.add(warm.cache.mode as string);
    if (warm.pending !== undefined) state.pending = { programs: (state.pending?.programs ?? 0) + 1, files: (state.pending?.files ?? 0) + warm.pending };
    if (vue) state.checkerAnswered.add(tsconfig);
    return { ok: true, issues: own(warm.issues) };
  }
  if (warm) return warm;
  throwIfCancelled(job.signal);
  // A file its last build read is gone: that build is stale (stale-builds.ts), so this run is cold.
  if (!inferred && (await forgetBuildsAfterDeletions(job.runtime, tscWorkDir(job.runtime, job.cacheDir, tsconfig)))) plan = await planned();
  job.onEvent?.({ kind: "tsc-phase", phase: plan.buildMode ? "build" : "command line", tsconfig: relative(job.root, tsconfig) || tsconfig });
  // vue-tsc through node runs behind the guard launcher: its global types are never written into the tree.
  const guarded = checker && run.tool === "vue-tsc" && checker.prefixArgs.at(-1) === checker.path;
  const parsed = await spawn(guarded ? [checker.path, ...plan.args] : plan.args, plan.configFile, {
    ...(checker ? { checker } : resolved !== root ? { checker: resolved } : {}),
    ...(guarded ? { entry: await vueTscGuard(job.runtime, job.cacheDir) } : plan.entry ? { entry: plan.entry } : {}),
    outside: outsideRoot(job, plan.configFile, plan.leadsTo),
  });
  if (!parsed.ok) return parsed;
  // A solution's programs are the configs its references reach (listed from the coverage listings).
  if (!inferred && !plan.buildMode) state.listLater.push(tsconfig);
  state.modes.add(checker ? "vue-tsc" : plan.buildMode ? "build-incremental" : "cli");
  if (checker) state.checkerAnswered.add(tsconfig);
  return { ok: true, issues: own(parsed.issues) };
}

/**
 * The tsc a program is checked with: the TypeScript its own package installs (`packages/x/node_modules/typescript`,
 * what that package's scripts run), else the project's (`root`, resolved from the checked paths).
 */
async function programCompiler(job: TscJob, root: ResolvedEngine, tsconfig: string): Promise<ResolvedEngine> {
  const dir = dirname(tsconfig);
  const inside = relative(job.root, dir);
  // From the config's own directory, the root's too (a check of one package's files resolved `root` there).
  if (inside.startsWith("..") || isAbsolute(inside)) return root;
  const own = await resolveEngine(job.runtime, "tsc", { start: dir, node: job.node });
  return own && own.path !== root.path ? own : root;
}

/**
 * Runs configs in parallel, at most tscSlots at once, collecting each one's findings in order (a failure leaves the
 * others standing).
 */
function runner(job: TscJob, resolved: ResolvedEngine, spawn: TscSpawn, state: RunState) {
  const outcomes: [string, ParseOutcome][] = [];
  const runAll = async (runs: readonly ProgramRun[]) => {
    job.dependents?.expect(runs.map((run) => run.config));
    const done = await mapBounded(
      runs.map((run, slot) => ({ ...run, slot })),
      tscSlots(job),
      async (run) =>
        [run.config, await runOne(job, resolved, { ...run, spawn, state }).finally(() => dependentsUnknown(job, run.config))] as [string, ParseOutcome],
    );
    outcomes.push(...done);
  };
  return { outcomes, runAll };
}

/**
 * A project without any tsconfig: the TS/JS files under the checked paths in one inferred program (TypeScript's
 * defaults with the editors' settings, as an editor checks them).
 */
async function runInferred(job: TscJob, resolved: ResolvedEngine, spawn: TscSpawn, state: RunState): Promise<RunnerOutcome> {
  const files = await candidateFiles(job);
  if (!files.length) return { status: "disabled", message: "no tsconfig.json and no TypeScript or JavaScript files under the checked paths" };
  const config = await writeInferredConfig(job, resolved, files);
  state.inferred = { config, files: new Set(files.flatMap((file) => job.toRelative(file) ?? [])) };
  const { outcomes, runAll } = runner(job, resolved, spawn, state);
  await runAll([{ config, tool: "tsc" }]);
  const combined = combine(outcomes, () => "tsconfig.json (inferred)");
  if (!combined.ok) return combined;
  const message = `inferred program (TypeScript defaults, allowJs) for ${files.length} file(s): the project has no tsconfig.json`;
  return { ...combined, cache: { ...state.cache, mode: [...state.modes].join("+") }, message };
}

/** engines.tsc's message: which programs ran and why, when that is more than the root tsconfig.json alone. */
function programsMessage(job: TscJob, choice: ProgramChoice, runs: readonly ProgramRun[]): string | undefined {
  const ran = new Set(runs.map((run) => run.config));
  const shown = choice.programs.filter((program) => ran.has(program.config));
  if (shown.length <= 1 && shown.every((program) => program.config === join(job.root, "tsconfig.json") && program.tool === "tsc")) return undefined;
  return `programs: ${describePrograms(job.root, { ...choice, programs: shown, reached: [] }).join(", ")}`;
}

/**
 * tsc over the programs the project checks (see tsc-programs.ts): the root tsconfig.json with its references, the
 * configs its scripts run and `typescript.projects`, in parallel, each warm in its host process or on the command
 * line (see runOne). Files none of them includes or imports are not type-checked with invented options: they are
 * coverage notes, as are framework files no program checks. A project without any tsconfig gets the editors'
 * inferred program instead.
 */
export async function runTsc(job: TscJob, resolved: ResolvedEngine, spawn: TscSpawn): Promise<RunnerOutcome> {
  const state: RunState = {
    cache: { hits: 0, misses: 0 },
    modes: new Set(),
    programFiles: new Set(),
    listLater: [],
    released: new Set(),
    inferred: null,
    checkerAnswered: new Set(),
  };
  const choice = await chooseFor(job);
  const { sources, framework } = await checkedFiles(job);
  if (choice.noTsconfig) {
    const outcome = await runInferred(job, resolved, spawn, state);
    const notChecked = coverageNotes([], framework);
    return "ok" in outcome && outcome.ok ? { ...outcome, notChecked } : outcome;
  }
  const scope = job.tsconfigs.scopeFor(resolved);
  const { outcomes, runAll } = runner(job, resolved, spawn, state);
  // A check of the whole project with one program runs that program whatever the listings say (they only name the
  // files it leaves out). Where a listing is a process of its own (TypeScript 7's `--showConfig`) the program starts
  // while it runs, rather than after; TypeScript 5/6 list in the spare warm host, which the program's check would take.
  const [only] = choice.programs;
  const listedApart = majorVersion(resolved) >= 7;
  const alone = listedApart && job.paths.includes(".") && choice.programs.length === 1 && only;
  const early = alone && !(await missingGenerated(job.runtime, job.root, only.config)) ? [{ config: only.config, tool: only.tool }] : null;
  const [{ runs, outside }] = await Promise.all([selectRuns(job, resolved, { choice, sources, framework, scope }), early && runAll(early)]);
  if (!early) await runAll(await withoutGeneratedGaps(job, runs, outcomes));
  else if (runs.length !== 1 || runs[0]?.config !== only?.config || runs[0]?.tool !== only?.tool)
    throw new Error("tsc: the listings chose other programs than the one run");
  // A file no listing includes but one of the programs imports is that program's file (tsc reports it there).
  if (outside.length && state.listLater.length) for (const file of await listProgramFiles(job, resolved, state.listLater)) state.programFiles.add(file);
  const notIncluded = outside.filter((file) => !state.programFiles.has(resolve(file)));
  // A framework checker's program covers its files when the checker answered for it; one that gave no answer (a
  // generated config missing, a failure, a timeout) leaves them unchecked, and says so.
  const failedRuns = new Set(outcomes.flatMap(([config, outcome]) => (outcome.ok ? [] : [config])));
  const dirsWith = (tool: "vue-tsc" | "svelte-check", which: (config: string) => boolean) =>
    runs.filter((run) => run.tool === tool && which(run.config)).map((run) => dirname(run.config));
  const answered = (config: string) => state.checkerAnswered.has(config);
  const failedRun = (config: string) => failedRuns.has(config);
  const svelteInstalled =
    framework.some((file) => file.endsWith(".svelte")) && (await resolveTypeChecker(job.runtime, "svelte-check", { start: job.root, node: job.node })) !== null;
  const failed = { vue: dirsWith("vue-tsc", failedRun), svelte: svelteInstalled ? dirsWith("svelte-check", failedRun) : [] };
  const checked = { vue: dirsWith("vue-tsc", answered), svelte: dirsWith("svelte-check", answered) };
  const notChecked = coverageNotes(notIncluded, framework, checked, { svelteInstalled, failed });
  if (!runs.length) {
    const why = describePrograms(job.root, { ...choice, programs: [], reached: [] });
    const message = ["no program the project checks includes the checked files", ...why].join("; ");
    return { ok: true, issues: [], notChecked, message, reuse: { reads: [] } };
  }
  const combined = withFixMarks(
    combine(outcomes, (tsconfig) => job.toRelative(tsconfig) ?? tsconfig),
    resolved,
  );
  if (!combined.ok) return { ...combined, notChecked };
  // A program no longer warm answers through the command line (exact, only slower): said where the answer is.
  const message =
    [programsMessage(job, choice, runs), ...[...state.released].map((reason) => `command line: ${reason}`)].filter(Boolean).join("; ") || undefined;
  const cache = { ...state.cache, mode: [...state.modes].join("+") };
  // A pending answer is never repeated by a quiet check (no reuse): the next check asks the programs, which finish it.
  const rest = state.pending ? { pending: state.pending } : reuseOf(state, runs);
  return { ...combined, cache, notChecked, ...(message ? { message } : {}), ...rest };
}

/**
 * A tsc answer a quiet check may repeat: every program answered warm, so it names every file it read (with the
 * configs its tsconfig extends; TypeScript 7's, every file tsgo read through the host's callbacks). A command-line
 * run names none, so its answer is never repeated unchecked.
 */
function reuseOf(state: RunState, runs: readonly { config: string; tool: string }[]): { reuse?: Reuse } {
  const warmOnly = state.modes.size > 0 && [...state.modes].every((mode) => mode.startsWith("warm-"));
  return warmOnly ? { reuse: { reads: [...state.programFiles], programs: runs.map((run) => `${run.tool}:${run.config}`) } } : {};
}
