import { join } from "node:path";
import type { CheckResponse, DetailIssue, LoopStatus, Stale } from "../core/contracts.ts";
import { findNodeCommand, resolveEngine } from "../engines/resolve.ts";
import type { NodeCommand } from "../engines/types.ts";
import type { Runtime } from "../runtime/types.ts";
import { EslintHosts } from "./lint/eslint-hosts.ts";
import { warmCapacity, WarmTsPool } from "../typescript/warm-pool.ts";
import { machineWarmMemoryMB } from "../core/config.ts";
import type { ElsewhereFacts } from "../core/elsewhere.ts";
import type { CheckOptions } from "./job/check-events.ts";
import { LintKnowledge, TscKnowledge } from "./check/elsewhere.ts";
import { runCheck, type CheckRooms, type CheckTiming } from "./check/pipeline.ts";
import { recoverJournals } from "./fix/journal-recovery.ts";
import { TransactionStore } from "./fix/transactions.ts";
import { ChangeTracker } from "./freshness/change-tracker.ts";
import { ContentHasher } from "./freshness/content-hasher.ts";
import { QuietIndex } from "./freshness/quiet-index.ts";
import { CheckStore, type DetailQuery } from "./history/check-store.ts";
import { SessionLog } from "./history/session-log.ts";
import { SnapshotStore } from "./history/snapshots.ts";
import { LintCache } from "./lint/lint-cache.ts";
import { releaseOwnership, takeOwnership } from "./project/ownership.ts";
import { openProject, type OpenOptions, type Project } from "./project/project.ts";
import { TsconfigCoverage } from "./tsc/tsc-coverage.ts";
import { persistTarget } from "./tsc/persist-target.ts";
import { Prewarm } from "./tsc/prewarm.ts";
import type { Checker } from "./workflow/checker.ts";
import { toolchainFingerprint } from "../core/environment.ts";
import { callerRuntime } from "../runtime/caller-runtime.ts";
import { ownedTempDir } from "./project/temp-dirs.ts";

export type { CheckTiming } from "./check/pipeline.ts";

/**
 * Only one process writes a state directory (the daemon, or one in-process service): this one takes its ownership
 * lock, or keeps its history in a private temporary directory when another live process holds it.
 */
async function ownedProject(runtime: Runtime, project: Project, writes: boolean): Promise<Project> {
  if (!writes) return project;
  const holder = await takeOwnership(runtime, project.stateDir, runtime.pid);
  if (holder === null) return { ...project, owned: true };
  const stateDir = await ownedTempDir(runtime, "signalint-state-");
  runtime.writeStderr(`signalint: ${project.stateDir} belongs to another Signalint process (pid ${holder}); this one keeps its history in ${stateDir}\n`);
  // Its fix journals still go to the shared state directory (see Project.journalStateDir): a temporary directory is
  // swept once its owner is dead, and an interrupted apply's backups would go with it, never rolled back.
  return { ...project, stateDir, temporaryState: true, journalStateDir: project.stateDir };
}

/**
 * The composition root of the service rooms: wires the check pipeline, history, freshness, lint, tsc, workflow and
 * fix rooms for one project, and answers what the shells ask.
 */
export class SignalintService implements Checker {
  readonly store = new CheckStore();
  /** Immutable per-check snapshots (persisted) for get_diagnostic_snapshot, compare and after_edit_check. */
  readonly snapshots: SnapshotStore;
  /** Prepared fix transactions and their write-ahead journal. */
  readonly transactions: TransactionStore;
  lastTiming: CheckTiming | null = null;
  /** The project tree's file watch: tells warm programs what changed, so a quiet check re-stats little. */
  readonly changes: ChangeTracker;
  private readonly rooms: CheckRooms;
  private readonly warm: WarmTsPool;
  private readonly eslintHosts: EslintHosts | null;
  /** The programs of the last checks, built again by a new long-lived server before its first check. */
  readonly prewarm: Prewarm;

  private constructor(
    readonly runtime: Runtime,
    readonly project: Project,
    readonly session: SessionLog,
    /** How JS engine entries are run (null: no node available). */
    readonly node: NodeCommand | null,
    /** One check, then the process stops (see OpenOptions.oneShot). */
    oneShot: boolean,
  ) {
    this.snapshots = new SnapshotStore(runtime, project.stateDir);
    this.transactions = new TransactionStore(this);
    this.changes = new ChangeTracker(runtime, project.root, project.stateDir);
    const warn = (message: string) => runtime.writeStderr(`signalint: ${message}\n`);
    this.warm = new WarmTsPool(runtime, project.root, warn, persistTarget(project), warmCapacity(runtime.totalMemoryBytes), oneShot);
    // Nothing is kept where nothing of TypeScript's is (SIGNALINT_CACHE_MAX_MB=0).
    this.prewarm = new Prewarm(runtime, project.root, persistTarget(project) ? project.cacheDir : null, this.warm);
    this.eslintHosts = oneShot ? null : new EslintHosts(project.cacheDir);
    let sequence = 0;
    this.rooms = {
      runtime,
      project,
      node,
      cache: { hasher: new ContentHasher(runtime, undefined, project.root), results: new LintCache(runtime, project.lintCacheDir) },
      tsconfigs: new TsconfigCoverage(runtime),
      warm: this.warm,
      eslintHosts: this.eslintHosts,
      changes: this.changes,
      session,
      store: this.store,
      snapshots: this.snapshots,
      quiet: new QuietIndex(runtime, project.root, project.stateDir),
      tscKnown: new TscKnowledge(),
      lintKnown: new LintKnowledge(),
      nextCheckId: () => `chk-${runtime.sha256(`${Date.now()}:${++sequence}:${Math.random()}`).slice(0, 12)}`,
    };
  }

  /** Resident memory of the warm TypeScript hosts, in bytes (as each last reported it). */
  warmRssBytes(): number {
    return this.warm.rssBytes();
  }

  /** The warm ESLint a fix plan asks (engine-fixes.ts), when this server keeps one and the settings allow it. */
  eslintWarm(): { hosts: EslintHosts; hasher: ContentHasher } | null {
    return this.eslintHosts && this.project.settings.warmEslint ? { hosts: this.eslintHosts, hasher: this.rooms.cache.hasher } : null;
  }

  /** Lints the warm ESLint hosts answered so far (tests: which answers were warm). */
  eslintHostAnswers(): number {
    return this.eslintHosts?.answered ?? 0;
  }

  /** Warm checks asked of the TypeScript hosts so far (tests: a quiet check asks none). */
  warmChecksAsked(): number {
    return this.warm.checksAsked;
  }

  /** Resolves once every warm TypeScript check started so far has answered (tests await it instead of polling). */
  warmSettled(): Promise<void> {
    return this.warm.settled();
  }

  /** Release warm programs, timers and the state directory's ownership (a private temporary one is removed). */
  async close(): Promise<void> {
    this.prewarm.stop();
    this.warm.close();
    this.eslintHosts?.close();
    this.changes.close();
    if (this.project.owned) await releaseOwnership(this.runtime, this.project.stateDir, this.runtime.pid);
    // Best effort: a temporary state directory left behind lies in the system's temporary directory.
    if (this.project.temporaryState) await this.runtime.removeFile(this.project.stateDir).catch(() => {});
    // Best effort: a temporary cache directory left behind lies in the system's temporary directory.
    if (this.project.temporaryCache) await this.runtime.removeFile(this.project.cacheDir).catch(() => {});
  }

  /** Open a project (validating its config) and replay loop memory. Throws ConfigError on bad configuration. */
  static async create(runtime: Runtime, options: OpenOptions = {}): Promise<SignalintService> {
    const project = await ownedProject(runtime, await openProject(runtime, { prepareState: true, ...options }), options.prepareState !== false);
    const session = new SessionLog(runtime, project.stateDir);
    const service = new SignalintService(runtime, project, session, await findNodeCommand(runtime), options.oneShot === true);
    try {
      // The warm host starts first: it loads Signalint and the project's compiler while the history below is read.
      if (options.prepareState !== false) await service.prestartWarm();
      const skipped = await session.replay();
      if (skipped > 0) runtime.writeStderr(`signalint: skipped ${skipped} malformed line(s) in ${join(project.stateDir, "session.jsonl")}\n`);
      // Only the state directory's owner sets a corrupt snapshot aside; a reader (doctor) skips it.
      await service.snapshots.load({ setAside: options.prepareState !== false });
      // A fix interrupted by a crash is rolled back before anything else can read those files (the host started above
      // has read none: it loads only the compiler). Only the owner recovers: a session without the lock shares its
      // journal directory with live writers.
      if (options.prepareState !== false && project.owned) await service.recoverFixes();
      // After the rollback: a prewarm reads the project's files. A long-lived server watches the tree from the start,
      // so its first check's answer is already vouched for (a quiet check repeats it) and its programs take hints.
      if (options.prewarm) {
        service.schedulePrewarm();
        if (options.prepareState !== false) service.changes.startSoon();
      }
    } catch (error) {
      service.warm.close();
      throw error;
    }
    return service;
  }

  /** Roll back interrupted fixes (fix/journal-recovery.ts) and say what was done, kept or set aside. */
  private async recoverFixes(): Promise<void> {
    const { rolledBack, kept, warnings } = await recoverJournals(this.transactions.journal, this.project.realRoot);
    const warn = (message: string) => this.runtime.writeStderr(`signalint: ${message}\n`);
    warnings.forEach(warn);
    if (rolledBack.length) warn(`rolled back an interrupted fix of ${rolledBack.length} file(s): ${rolledBack.slice(0, 10).join(", ")}`);
    if (kept.length) warn(`left ${kept.slice(0, 10).join(", ")} as is: edited since the interrupted fix`);
  }

  /**
   * A server for a TypeScript project starts a warm TypeScript host now, loading the project's compiler, so its first
   * check need not wait for either.
   */
  private async prestartWarm(): Promise<void> {
    const { root, settings } = this.project;
    if (!settings.warmTypeScript || settings.engines.tsc === false || !(await this.runtime.stat(join(root, "tsconfig.json")))) return;
    this.warm.prestart();
    const typescript = await resolveEngine(this.runtime, "tsc", { start: root, node: this.node });
    if (typescript?.packageDir) this.warm.preload(typescript.packageDir);
  }

  /** A long-lived server builds its last programs while no check has come yet (see Prewarm). */
  private schedulePrewarm(): void {
    const { settings } = this.project;
    if (settings.prewarmDelayMs === null || !settings.warmTypeScript || settings.engines.tsc === false) return;
    const memoryMB = settings.warmTypeScriptMemoryMB ?? machineWarmMemoryMB(this.runtime.totalMemoryBytes);
    this.prewarm.schedule(settings.prewarmDelayMs, { timeoutMs: settings.timeoutsMs.tsc, memoryLimitBytes: memoryMB * 1024 ** 2 });
  }

  /**
   * Run every enabled engine on the paths and shape the response. `incremental` marks check_files. A cancelled check
   * (options.signal) kills its engines, records nothing and throws CheckCancelledError. `options.tool` names the
   * snapshot's maker.
   */
  async check(requested: readonly string[], incremental: boolean, options: CheckOptions = {}): Promise<CheckResponse> {
    this.prewarm.stop();
    const { response, timing } = await runCheck(this.roomsFor(options.env), requested, { ...options, incremental });
    await this.prewarm.remember();
    this.lastTiming = timing;
    if (this.runtime.env("SIGNALINT_DEBUG_TIMING")) this.runtime.writeStderr(`signalint timing: ${JSON.stringify(timing)}\n`);
    return response;
  }

  /**
   * The rooms as a client with environment `env` sees them (a daemon's client; absent: this process's own): engines
   * resolve and run in its environment, and the warm programs serve it only when its toolchain variables are this
   * process's (they were built in these).
   */
  private roomsFor(env: Readonly<Record<string, string>> | undefined): CheckRooms {
    if (!env) return this.rooms;
    const own = toolchainFingerprint(this.runtime.environment(), this.runtime.sha256);
    return { ...this.rooms, runtime: callerRuntime(this.runtime, env), warmAllowed: toolchainFingerprint(env, this.runtime.sha256) === own };
  }

  /** The tsc errors a check_files found outside its files (introduced or unattributed), while the check is remembered. */
  elsewhereOf(checkId: string): ElsewhereFacts | undefined {
    return this.store.byId(checkId)?.elsewhere;
  }

  /** The tsc programs a remembered check's issues came from (undefined: not known, or the check is forgotten). */
  tscProgramsOf(checkId: string): readonly string[] | undefined {
    return this.store.byId(checkId)?.tscPrograms;
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
