import { join } from "node:path";
import { ENGINE_NAMES, type CheckResponse, type DetailIssue, type EngineName, type Engines, type LoopStatus, type Stale } from "../core/contracts.ts";
import { clusterIssues } from "../core/cluster.ts";
import { compileIgnore } from "../core/glob.ts";
import { normalizeIssues, type RawIssue } from "../core/issues.ts";
import { loopEventFromIssues } from "../core/loops.ts";
import { isWithin } from "../core/paths.ts";
import { buildCheckResponse } from "../core/response.ts";
import { BIOME_CONFIGS } from "../engines/biome.ts";
import { ESLINT_FLAT_CONFIGS } from "../engines/eslint.ts";
import { findNodeCommand } from "../engines/resolve.ts";
import type { NodeCommand } from "../engines/types.ts";
import type { Runtime } from "../runtime/types.ts";
import { CheckStore, type DetailQuery } from "./check-store.ts";
import { throwIfCancelled, type CheckOptions } from "./check-events.ts";
import { pathMapper, runEngine, type EngineJob, type EngineReport } from "./engine-runner.ts";
import { ChangeTracker } from "./change-tracker.ts";
import { ContentHasher } from "./content-hasher.ts";
import { LintCache } from "./lint-cache.ts";
import { TsconfigCoverage } from "./tsc-coverage.ts";
import { WarmTsPool } from "../typescript/warm-pool.ts";
import { ensureStateDir, openProject, readConfigFile, validatePaths, type OpenOptions, type Project } from "./project.ts";
import { SessionLog, type CheckRecord } from "./session-log.ts";
import { resolveSettings } from "../core/config.ts";
import { SnapshotStore } from "./snapshots.ts";
import { TransactionStore } from "./transactions.ts";

/** Timing of one check, kept for stats and snapshots (never in the payload: it is not deterministic). */
export interface CheckTiming {
  durationMs: number;
  engines: Partial<Record<EngineName, number>>;
  cache: CheckResponse["cache"];
}

async function anyExists(runtime: Runtime, root: string, names: readonly string[]): Promise<boolean> {
  const found = await Promise.all(names.map(async (name) => (await runtime.stat(join(root, name)))?.isFile === true));
  return found.includes(true);
}

/** The stateful core of Signalint: runs checks, remembers them, answers detail and loop queries. */
export class SignalintService {
  readonly store = new CheckStore();
  /** Immutable per-check snapshots (persisted) for get_diagnostic_snapshot, compare and after_edit_check. */
  readonly snapshots: SnapshotStore;
  /** Prepared fix transactions and their write-ahead journal. */
  readonly transactions: TransactionStore;
  lastTiming: CheckTiming | null = null;
  private sequence = 0;
  private readonly cache: EngineJob["cache"];
  private readonly warm: WarmTsPool;
  private readonly tsconfigs: TsconfigCoverage;
  /** The project tree's file watch: tells warm programs what changed, so a quiet check re-stats little. */
  readonly changes: ChangeTracker;

  private constructor(
    readonly runtime: Runtime,
    readonly project: Project,
    readonly session: SessionLog,
    /** How JS engine entries are run (null: no node available). */
    readonly node: NodeCommand | null,
  ) {
    this.snapshots = new SnapshotStore(runtime, project.stateDir);
    this.transactions = new TransactionStore(this);
    this.cache = { hasher: new ContentHasher(runtime), results: new LintCache(runtime, project.stateDir) };
    this.tsconfigs = new TsconfigCoverage(runtime);
    this.changes = new ChangeTracker(runtime, project.root, project.stateDir);
    this.warm = new WarmTsPool(runtime, project.root, (message) => runtime.writeStderr(`signalint: ${message}\n`));
  }

  /** Resolves once every warm TypeScript check started so far has answered (tests await it instead of polling). */
  warmSettled(): Promise<void> {
    return this.warm.settled();
  }

  /** Release warm programs and timers. */
  close(): void {
    this.warm.close();
    this.changes.close();
  }

  /** Open a project (validating its config) and replay loop memory. Throws ConfigError on bad configuration. */
  static async create(runtime: Runtime, options: OpenOptions = {}): Promise<SignalintService> {
    const project = await openProject(runtime, { prepareState: true, ...options });
    const session = new SessionLog(runtime, project.stateDir);
    const skipped = await session.replay();
    if (skipped > 0) runtime.writeStderr(`signalint: skipped ${skipped} malformed line(s) in ${join(project.stateDir, "session.jsonl")}\n`);
    const service = new SignalintService(runtime, project, session, await findNodeCommand(runtime));
    await service.snapshots.load();
    // A fix interrupted by a crash is rolled back before anything else can read those files.
    const rolledBack = options.prepareState === false ? [] : await service.transactions.journal.recover();
    if (rolledBack.length)
      runtime.writeStderr(`signalint: rolled back an interrupted fix of ${rolledBack.length} file(s): ${rolledBack.slice(0, 10).join(", ")}\n`);
    // A server for a TypeScript project starts a warm TypeScript host now, so its first check need not wait for one.
    const { warmTypeScript, engines } = project.settings;
    if (options.prepareState !== false && warmTypeScript && engines.tsc !== false && (await runtime.stat(join(project.root, "tsconfig.json"))))
      service.warm.prestart();
    return service;
  }

  /** Which engines run: explicit config switches, else what the project has; a string says why one is off. */
  async enabledEngines(switches: Partial<Record<EngineName, boolean>>): Promise<Record<EngineName, boolean | string>> {
    const root = this.project.root;
    const explicit = (engine: EngineName, fallback: boolean | string): boolean | string =>
      switches[engine] === undefined ? fallback : switches[engine] || "disabled in signalint.config.json";
    const [hasBiome, hasEslint] = await Promise.all([anyExists(this.runtime, root, BIOME_CONFIGS), anyExists(this.runtime, root, ESLINT_FLAT_CONFIGS)]);
    return {
      oxlint: explicit("oxlint", true),
      tsc: explicit("tsc", true),
      biome: explicit("biome", hasBiome || "off by default; enable with a biome.json or engines.biome in signalint.config.json"),
      eslint: explicit("eslint", hasEslint || "no ESLint flat config (eslint.config.*) in the project root"),
    };
  }

  /**
   * Run every enabled engine on the paths and shape the response. `incremental` marks check_files. A cancelled check
   * (options.signal) kills its engines, records nothing and throws CheckCancelledError. `options.tool` names the
   * snapshot's maker.
   */
  async check(requested: readonly string[], incremental: boolean, options: CheckOptions = {}): Promise<CheckResponse> {
    throwIfCancelled(options.signal);
    const started = performance.now();
    const observedAtMs = Date.now();
    const { runtime, project } = this;
    // Engine switches, ignore globs and timeouts are re-read so edits to the config apply to the next check.
    const settings = resolveSettings(await readConfigFile(runtime, project.root), (name) => runtime.env(name));
    const paths = await validatePaths(runtime, project, requested, incremental ? "file" : "any");
    await ensureStateDir(runtime, project.stateDir);
    // Every change made before this check is in the watch's record once the fence passes (runs alongside).
    const fenced = this.changes.fence();
    const enabled = await this.enabledEngines(settings.engines);
    const changeHint = (await fenced) ? this.changes.hint() : null;
    this.cache.hasher.forgetChanged(changeHint);
    // Diagnostics in files outside the project root are not shown, but they are counted (filteredOutIssueCount).
    let outsideRoot = 0;
    const baseMapper = pathMapper(project.root, project.realRoot);
    const toRelative = (reported: string) => {
      const relative = baseMapper(reported);
      if (relative === null) outsideRoot++;
      return relative;
    };
    const ignored = compileIgnore(settings.ignore);
    const reports = await Promise.all(
      ENGINE_NAMES.map(async (engine): Promise<[EngineName, EngineReport]> => {
        const on = enabled[engine];
        // Off by configuration or default: the reason is doctor's to explain, not every response's.
        if (on !== true) return [engine, { status: { status: "disabled" }, issues: [], durationMs: 0 }];
        const job: EngineJob = {
          runtime,
          root: project.root,
          stateDir: project.stateDir,
          cacheDir: project.cacheDir,
          paths,
          explicit: settings.engines[engine] === true,
          ignored,
          tsconfigs: this.tsconfigs,
          timeoutMs: settings.timeoutsMs[engine],
          node: this.node,
          cache: this.cache,
          warm: this.warm,
          changeHint,
          warmTypeScript: settings.warmTypeScript,
          warmMemoryMB: settings.warmTypeScriptMemoryMB,
          oxlintTypeAware: settings.oxlintTypeAware,
          toRelative,
          signal: options.signal,
          onEvent: options.onEvent,
        };
        return [engine, await runEngine(engine, job)];
      }),
    );
    throwIfCancelled(options.signal);
    const raw = reports.flatMap(([, report]) => report.issues);
    const kept: RawIssue[] = raw.filter((issue) => (issue.programWide || paths.some((path) => isWithin(issue.file, path))) && !ignored(issue.file));
    const hash = (text: string) => runtime.sha256(text);
    const issues = normalizeIssues(kept, hash);
    const last = this.store.latest();
    const groups = clusterIssues(issues, hash, last?.scope && { scope: last.scope, issues: last.issues });
    const event = loopEventFromIssues(issues, paths, incremental);
    const checkId = `chk-${hash(`${Date.now()}:${++this.sequence}:${Math.random()}`).slice(0, 12)}`;
    const engines = Object.fromEntries(reports.map(([engine, report]) => [engine, report.status])) as Engines;
    const cache = Object.fromEntries(reports.flatMap(([engine, report]) => (report.cache ? [[engine, report.cache]] : [])));
    // Loop memory must include this check before its warning is computed.
    await this.session.record(event, {
      checkId,
      kind: incremental ? "files" : "project",
      durationMs: Math.round(performance.now() - started),
      totalIssues: issues.length,
      cache: cache as CheckRecord["cache"],
    });
    const response = buildCheckResponse({
      checkId,
      projectRoot: project.root,
      engines,
      issues,
      groups,
      filteredOutIssueCount: raw.length - kept.length + outsideRoot,
      loopWarning: this.session.tracker.warningFor(event),
      maxClusters: settings.maxClusters,
      maxRemainingIssues: settings.maxRemainingIssues,
      // check_files reports cache use; check_project keeps its payload lean (stats are in lastTiming and the CLI).
      ...(incremental ? { cache } : {}),
    });
    this.store.add({ checkId, issues, groups, response, scope: paths });
    await this.snapshots.record({
      checkId,
      observedAtMs,
      tool: options.tool ?? (incremental ? "check_files" : "check_project"),
      scope: paths,
      engines,
      clusters: groups.map((group) => group.cluster),
      issues,
      cache: cache as CheckResponse["cache"],
      durationMs: Math.round(performance.now() - started),
    });
    this.changes.startSoon();
    this.lastTiming = {
      durationMs: Math.round(performance.now() - started),
      engines: Object.fromEntries(reports.map(([engine, report]) => [engine, report.durationMs])),
      cache,
    };
    if (runtime.env("SIGNALINT_DEBUG_TIMING")) runtime.writeStderr(`signalint timing: ${JSON.stringify(this.lastTiming)}\n`);
    return response;
  }

  /** get_issue_detail. */
  issueDetail(query: DetailQuery): { issues: DetailIssue[] } | Stale {
    return this.store.detail(query);
  }

  /** get_loop_status. */
  loopStatus(): LoopStatus {
    return this.session.tracker.status();
  }
}
