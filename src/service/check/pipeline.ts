import { join } from "node:path";
import { ENGINE_NAMES, type CheckResponse, type EngineName, type Engines, type Pending } from "../../core/contracts.ts";
import { machineWarmMemoryMB, resolveSettings, type Settings } from "../../core/config.ts";
import { clusterIssues, type ClusterGroup } from "../../core/cluster.ts";
import { compileIgnore } from "../../core/glob.ts";
import { normalizeIssues, type Issue, type RawIssue } from "../../core/issues.ts";
import { loopEventFromIssues } from "../../core/loops.ts";
import { isWithin } from "../../core/paths.ts";
import { elsewhereField, type ElsewhereFacts } from "../../core/elsewhere.ts";
import { buildCheckResponse } from "../../core/response.ts";
import { isConfigDiagnosticFile } from "../../engines/tsc.ts";
import type { NodeCommand } from "../../engines/types.ts";
import type { Runtime } from "../../runtime/types.ts";
import type { ChangeHint } from "../../typescript/change-hint.ts";
import type { EslintHosts } from "../lint/eslint-hosts.ts";
import type { WarmTsPool } from "../../typescript/warm-pool.ts";
import type { ChangeTracker } from "../freshness/change-tracker.ts";
import type { QuietIndex, QuietProbe } from "../freshness/quiet-index.ts";
import type { CheckStore } from "../history/check-store.ts";
import type { CheckRecord, SessionLog } from "../history/session-log.ts";
import type { SnapshotStore } from "../history/snapshots.ts";
import type { LintJob } from "../lint/lint-runner.ts";
import { ensureStateDir, readConfigFile, validatePaths, type Project } from "../project/project.ts";
import type { TsconfigCoverage } from "../tsc/tsc-coverage.ts";
import { throwIfCancelled, type CheckOptions } from "../job/check-events.ts";
import type { EngineReport } from "../job/engine-job.ts";
import { pathMapper } from "./engine-runner.ts";
import { checkCoverage, type CoverageFacts } from "./coverage.ts";
import { mergeElsewhere, type LintKnowledge, type TscKnowledge } from "./elsewhere.ts";
import { CheckDependents } from "../job/dependents.ts";
import { dependentsNotes } from "./dependents-notes.ts";
import { enabledEngines, eslintLegacy, runEngines } from "./fan-out.ts";
import { environmentFingerprint } from "../../core/environment.ts";
import { engineIdentity, quietKey, repeatedReports, resolveEnabled, reusableReads, type ResolvedEngines } from "./quiet-check.ts";

/** What a check reads and writes, wired once by the composition root (SignalintService). */
export interface CheckRooms {
  runtime: Runtime;
  project: Project;
  /** How JS engine entries are run (null: no node available). */
  node: NodeCommand | null;
  cache: LintJob["cache"];
  tsconfigs: TsconfigCoverage;
  warm: WarmTsPool;
  /** Warm ESLint command lines (null: a one-shot process, where every lint starts ESLint). */
  eslintHosts: EslintHosts | null;
  changes: ChangeTracker;
  session: SessionLog;
  store: CheckStore;
  snapshots: SnapshotStore;
  /** Engine results a check with nothing changed repeats (see QuietIndex). */
  quiet: QuietIndex<EngineResults>;
  /** The latest whole-program tsc issues, which check_files compares errors outside its files with. */
  tscKnown: TscKnowledge;
  /** The ESLint issues known per file, which an edit's check compares its importers' findings with (typed rules). */
  lintKnown: LintKnowledge;
  /** A new id for every check (never derived from content alone). */
  nextCheckId: () => string;
  /**
   * False when the asking client's toolchain variables (PATH, NODE_OPTIONS, TSC_* …) differ from this process's: the
   * warm programs were built in this process's, so that client's tsc runs on the command line, in its environment.
   */
  warmAllowed?: boolean;
}

/** Timing of one check, kept for stats and snapshots (never in the payload: it is not deterministic). */
export interface CheckTiming {
  durationMs: number;
  engines: Partial<Record<EngineName, number>>;
  cache: CheckResponse["cache"];
  /** True when nothing changed and the kept engine results answered (no engine ran). */
  reused?: boolean;
}

interface PreparedCheck {
  settings: Settings;
  paths: string[];
  incremental: boolean;
  /** Project-relative paths matched by the config's `ignore`. */
  ignored: (path: string) => boolean;
  enabled: Record<EngineName, boolean | string>;
  /** ESLint runs a legacy .eslintrc* config. */
  eslintLegacy: boolean;
  changeHint: ChangeHint | null;
  /** The enabled engines as they resolve now: what runs, and (engineIdentity) who would answer. */
  resolved: ResolvedEngines;
  identity: string;
  /** The client environment's fingerprint (part of `identity`): what ESLint's typed rules showed is kept per environment. */
  environment: string;
  started: number;
  observedAtMs: number;
}

/** What the engines of a check found, before filtering and clustering (kept for quiet checks). */
export interface EngineResults {
  reports: [EngineName, EngineReport][];
  /** Diagnostics in files outside the project root (the linters'; tsc's are shown): counted in filteredOutIssueCount. */
  outsideRoot: number;
  /** Files under the paths not (fully) checked, by reason; `incomplete`: the ones that make the check never clean. */
  coverage: CoverageFacts;
}

interface CheckOutcome {
  issues: Issue[];
  groups: ClusterGroup[];
  engines: Engines;
  cache: NonNullable<CheckResponse["cache"]>;
  filteredOut: number;
  coverage: EngineResults["coverage"];
  /** check_files: tsc errors outside the files (see TscKnowledge). */
  elsewhere: ElsewhereFacts | null;
  /** check_files past its time budget: tsc programs still re-checking beyond the named files (see tsc/named-first.ts). */
  pending: Pending | undefined;
  /** The tsc programs that answered (see StoredCheck.tscPrograms). */
  tscPrograms: readonly string[] | undefined;
}

/** Step 1: re-read the config (switches, ignore globs and timeouts apply to the next check), validate, fence. */
async function prepare(rooms: CheckRooms, requested: readonly string[], incremental: boolean): Promise<PreparedCheck> {
  const started = performance.now();
  const observedAtMs = Date.now();
  const { runtime, project } = rooms;
  const settings = resolveSettings(await readConfigFile(runtime, project.root), (name) => runtime.env(name));
  const paths = await validatePaths(runtime, project, requested, incremental ? "file" : "any");
  await ensureStateDir(runtime, project.stateDir);
  // Every change made before this check is in the watch's record once the fence passes (runs alongside).
  const fenced = rooms.changes.fence();
  const enabled = await enabledEngines(runtime, project.root, settings.engines);
  const [legacy, resolved] = await Promise.all([
    enabled.eslint === true && eslintLegacy(runtime, project.root),
    resolveEnabled(runtime, { root: project.root, paths, node: rooms.node, enabled }),
  ]);
  // Who answers includes the environment the engines run in: another shell's variables are another identity.
  const environment = environmentFingerprint(runtime.environment(), runtime.sha256);
  const identity = `${engineIdentity(resolved)}\0${environment}`;
  const changeHint = (await fenced) ? rooms.changes.hint() : null;
  rooms.cache.hasher.forgetChanged(changeHint);
  const ignored = compileIgnore(settings.ignore);
  return { settings, paths, incremental, ignored, enabled, eslintLegacy: legacy, changeHint, resolved, identity, environment, started, observedAtMs };
}

/**
 * Step 2, when nothing changed: the kept results of the same request, when the watch (after the fence), the engines'
 * identity and the stamps of what the watch cannot see vouch that no input changed since; else null.
 */
function repeatQuiet(rooms: CheckRooms, check: PreparedCheck, key: string): { kept: EngineResults; results: EngineResults } | null {
  const kept = rooms.quiet.reuse(key, check.changeHint, check.identity);
  return kept && { kept, results: { ...kept, reports: repeatedReports(kept.reports) } };
}

/** Step 2 otherwise: run the engines, and keep their results for a later quiet check when they can be repeated. */
async function runAndKeep(rooms: CheckRooms, check: PreparedCheck, key: string, options: CheckOptions): Promise<EngineResults> {
  // Stamped before any engine runs: a change made while they run shows later as a different stamp.
  const probe: QuietProbe | null = await rooms.quiet.probe(check.changeHint, check.identity);
  const results = await runAll(rooms, check, options);
  rooms.quiet.store(key, probe, reusableReads(results.reports, rooms.cache.hasher.external()), results);
  return results;
}

/** Step 2: every enabled engine in parallel on the checked paths. */
async function runAll(rooms: CheckRooms, check: PreparedCheck, options: CheckOptions): Promise<EngineResults> {
  const { runtime, project } = rooms;
  const { settings } = check;
  let outsideRoot = 0;
  const baseMapper = pathMapper(project.root, project.realRoot);
  const toRelative = (reported: string) => {
    const relative = baseMapper(reported);
    // A config file outside the root is not dropped: tsc's diagnostic there is reported on the config extending it.
    if (relative === null && !isConfigDiagnosticFile(reported)) outsideRoot++;
    return relative;
  };
  // An edit's check: tsc's programs say which files import the named ones, and ESLint's typed rules lint them too.
  // Only asked when ESLint runs: each program walks every import to answer, which no other engine needs.
  const dependents =
    check.incremental && check.enabled.eslint === true
      ? new CheckDependents(
          check.paths.map((path) => join(project.root, path)),
          baseMapper,
        )
      : null;
  if (check.enabled.tsc !== true) dependents?.close("tsc is off, and only its warm programs know which files import the checked ones");
  const reports = await runEngines(check.enabled, (engine) => ({
    runtime,
    resolved: check.resolved[engine] ?? null,
    root: project.root,
    stateDir: project.stateDir,
    cacheDir: project.cacheDir,
    paths: check.paths,
    explicit: settings.engines[engine] === true,
    ignored: check.ignored,
    tsconfigs: rooms.tsconfigs,
    timeoutMs: settings.timeoutsMs[engine],
    node: rooms.node,
    cache: rooms.cache,
    warm: rooms.warm,
    eslintHosts: settings.warmEslint ? rooms.eslintHosts : null,
    changeHint: check.changeHint,
    warmTypeScript: settings.warmTypeScript && rooms.warmAllowed !== false,
    warmMemoryMB: settings.warmTypeScriptMemoryMB ?? machineWarmMemoryMB(runtime.totalMemoryBytes),
    typescriptProjects: settings.typescriptProjects,
    oxlintTypeAware: settings.oxlintTypeAware,
    eslintLegacy: check.eslintLegacy,
    // check_files and after_edit_check: the named files first, the rest pending past the budget (unless whole).
    namedFirst:
      check.incremental && !options.whole
        ? { files: check.paths.map((path) => join(project.root, path)), deadline: check.started + settings.pendingAfterMs }
        : null,
    // tsc reports a diagnostic outside the root on an in-root config (engines/tsc.ts outsideRootIssue): never dropped.
    toRelative: engine === "tsc" ? baseMapper : toRelative,
    signal: options.signal,
    onEvent: options.onEvent,
    dependents,
    typedLintDependents: settings.typedLintDependents,
  }));
  throwIfCancelled(options.signal);
  const coverage = await checkCoverage(
    {
      runtime,
      root: project.root,
      stateDir: project.stateDir,
      paths: check.paths,
      ignored: check.ignored,
      toRelative: baseMapper,
      offByDefault: ENGINE_NAMES.filter((engine) => check.enabled[engine] !== true && settings.engines[engine] === undefined),
    },
    reports,
  );
  const eslint = reports.find(([engine]) => engine === "eslint")?.[1];
  const importers = dependentsNotes(eslint?.dependents, settings.typedLintDependents);
  coverage.notChecked.push(...importers);
  if (importers[0]) coverage.importersUnlinted = importers[0].reason;
  return { reports, outsideRoot, coverage };
}

/**
 * Step 3: keep what is inside the paths and outside `ignore`, normalize, cluster. Program-wide and config
 * diagnostics are kept whatever the paths and `ignore` say: a broken config breaks the whole program's check.
 */
function postProcess(rooms: CheckRooms, check: PreparedCheck, results: EngineResults, kept: EngineResults): CheckOutcome {
  const { reports } = results;
  const hash = (text: string) => rooms.runtime.sha256(text);
  const normal = normalized.get(kept) ?? normalize(check, results, hash);
  normalized.set(kept, normal);
  // Copies: clustering sets each issue's cluster, and an earlier check's issues keep theirs.
  const issues = normal.issues.map((issue) => ({ ...issue }));
  const last = rooms.store.latest();
  const groups = clusterIssues(issues, hash, last?.scope && { scope: last.scope, issues: last.issues });
  const engines = Object.fromEntries(reports.map(([engine, report]) => [engine, report.status])) as Engines;
  const cache = Object.fromEntries(reports.flatMap(([engine, report]) => (report.cache ? [[engine, report.cache]] : [])));
  const tsc = reports.find(([engine]) => engine === "tsc")?.[1];
  const eslint = reports.find(([engine]) => engine === "eslint")?.[1];
  const toRelative = pathMapper(rooms.project.root, rooms.project.realRoot);
  const elsewhere = mergeElsewhere(rooms.tscKnown.update(tsc, check, hash, toRelative), rooms.lintKnown.update(eslint, check, hash, check.environment));
  const tscPrograms = tsc?.reuse?.programs;
  return { issues, groups, engines, cache, filteredOut: normal.filteredOut, coverage: results.coverage, elsewhere, pending: tsc?.pending, tscPrograms };
}

/**
 * Engine results (as a quiet check keeps them) normalized as the check that ran them did: a repeat of the same request
 * (paths, ignore) with the same findings gives the same issues, so a thousand findings are not hashed again.
 */
const normalized = new WeakMap<EngineResults, { issues: Issue[]; filteredOut: number }>();

function normalize(check: PreparedCheck, results: EngineResults, hash: (text: string) => string): { issues: Issue[]; filteredOut: number } {
  const raw = results.reports.flatMap(([, report]) => report.issues);
  const kept: RawIssue[] = raw.filter((issue) => issue.programWide || (check.paths.some((path) => isWithin(issue.file, path)) && !check.ignored(issue.file)));
  return { issues: normalizeIssues(kept, hash), filteredOut: raw.length - kept.length + results.outsideRoot };
}

/** Step 4: loop memory, the response, the check store and the snapshot. */
async function record(rooms: CheckRooms, check: PreparedCheck, outcome: CheckOutcome, by: { tool: string; session?: string }): Promise<CheckResponse> {
  const { issues, groups, engines, cache } = outcome;
  const event = loopEventFromIssues(issues, check.paths, check.incremental);
  const checkId = rooms.nextCheckId();
  const elapsed = () => Math.round(performance.now() - check.started);
  // Loop memory must include this check before its warning is computed.
  await rooms.session.record(event, {
    checkId,
    kind: check.incremental ? "files" : "project",
    durationMs: elapsed(),
    totalIssues: issues.length,
    cache: cache as CheckRecord["cache"],
  });
  const response = buildCheckResponse({
    checkId,
    projectRoot: rooms.project.root,
    engines,
    issues,
    groups,
    filteredOutIssueCount: outcome.filteredOut,
    loopWarning: rooms.session.tracker.warningFor(event),
    maxClusters: check.settings.maxClusters,
    maxRemainingIssues: check.settings.maxRemainingIssues,
    // check_files reports cache use; check_project keeps its payload lean (stats are in lastTiming and the CLI).
    ...(check.incremental ? { cache } : {}),
    notChecked: outcome.coverage.notChecked,
    incomplete: outcome.coverage.incomplete,
    unlinted: outcome.coverage.unlinted,
    ...(outcome.coverage.importersUnlinted ? { importersUnlinted: outcome.coverage.importersUnlinted } : {}),
    elsewhere: elsewhereField(outcome.elsewhere),
    ...(outcome.pending ? { pending: outcome.pending } : {}),
  });
  const elsewhere = outcome.elsewhere ? { elsewhere: outcome.elsewhere } : {};
  const programs = outcome.tscPrograms ? { tscPrograms: outcome.tscPrograms } : {};
  rooms.store.add({ checkId, issues, groups, response, scope: check.paths, ...elsewhere, ...programs, ...(by.session ? { session: by.session } : {}) });
  const clusters = groups.map((group) => group.cluster);
  const scope = check.paths;
  const { tool, session } = by;
  await rooms.snapshots.record({
    checkId,
    observedAtMs: check.observedAtMs,
    tool,
    ...(session ? { session } : {}),
    scope,
    engines,
    clusters,
    issues,
    ...(outcome.coverage.unchecked.length ? { unchecked: outcome.coverage.unchecked } : {}),
    ...(outcome.pending ? { pending: true as const } : {}),
    cache,
    durationMs: elapsed(),
  });
  rooms.changes.startSoon();
  return response;
}

/**
 * One check: prepare → run → post-process → record. `incremental` marks check_files. A cancelled check
 * (options.signal) kills its engines, records nothing and throws CheckCancelledError.
 */
export async function runCheck(
  rooms: CheckRooms,
  requested: readonly string[],
  options: CheckOptions & { incremental: boolean },
): Promise<{ response: CheckResponse; timing: CheckTiming }> {
  throwIfCancelled(options.signal);
  const check = await prepare(rooms, requested, options.incremental);
  const key = quietKey(check);
  const repeated = repeatQuiet(rooms, check, key);
  const results = repeated?.results ?? (await runAndKeep(rooms, check, key, options));
  // Keyed by the results a quiet check keeps (the same object when these are kept), for its repeats.
  const outcome = postProcess(rooms, check, results, repeated?.kept ?? results);
  const tool = options.tool ?? (options.incremental ? "check_files" : "check_project");
  const response = await record(rooms, check, outcome, { tool, session: options.session });
  const engines = Object.fromEntries(results.reports.map(([engine, report]) => [engine, report.durationMs]));
  const reused = repeated ? { reused: true } : {};
  return { response, timing: { durationMs: Math.round(performance.now() - check.started), engines, cache: outcome.cache, ...reused } };
}
