import type { RawIssue } from "../core/issues.ts";
import type { ChangeHint } from "./change-hint.ts";
import type { Runtime } from "../runtime/types.ts";
import { type HostRequest, type ProgramDependents, type WarmKind } from "./host-protocol.ts";
import { WarmHost } from "./warm-host-client.ts";
import { projectIssues, storedAnswerHere } from "./one-shot-answer.ts";
import type { WarmCheckInfo } from "./warm-builder.ts";
import { programKey, replaces } from "./program-key.ts";
import { resolutionStamp } from "./host-questions.ts";
import type { PersistTarget } from "./persisted-state.ts";
import type { TsconfigListing } from "./tsconfig.ts";

/** Warm programs kept at most when the machine's memory is unknown (one host process per program). */
export const DEFAULT_WARM_PROGRAMS = 8;

/**
 * How many warm programs (host processes) a server keeps: one per GiB of the machine's memory, 3 to 32. Each host is
 * bounded on its own (warmTypeScriptMemoryMB); a small program's host takes 100–300 MB, so this keeps them well
 * inside the machine while a workspace of many tsconfigs stays warm. Beyond it, the least recently used idle host
 * is released for a new one (its program is rebuilt when it is asked for again).
 */
export function warmCapacity(totalMemoryBytes: number | null): number {
  if (!totalMemoryBytes) return DEFAULT_WARM_PROGRAMS;
  return Math.min(32, Math.max(3, Math.floor(totalMemoryBytes / 1024 ** 3)));
}
/** A warm program unused for this long is released (its host process is stopped). */
export const WARM_IDLE_MS = 15 * 60 * 1000;
/** How long a spare host may take to load the project's compiler before it is taken for stuck and stopped. */
const PRELOAD_TIMEOUT_MS = 120_000;
/** A host that died or failed this many times in a row without answering is not started again for that program. */
const MAX_DEATHS = 3;

const normalized = (path: string) => path.replace(/\\/g, "/");

/** How a kind's program and its checker are named in what the pool says. */
const named = (kind: WarmKind): [program: string, checker: string] =>
  kind === "svelte" ? ["svelte-check program", "svelte-check"] : kind === "vue" ? ["vue-tsc program", "vue-tsc"] : ["TypeScript program", "tsc"];

/** A program a check was answered from: what a new server builds again before its first check (see prewarm). */
export interface WarmProgram {
  kind: WarmKind;
  typescriptDir: string;
  configPath: string;
  configFile: string;
}

/** One warm check asked of the pool. */
export interface WarmRequest {
  kind: WarmKind;
  typescriptDir: string;
  configPath: string;
  configFile: string;
  timeoutMs: number;
  memoryLimitBytes: number;
  signal?: AbortSignal;
  /** Maps an absolute file name to the project (null: outside it; the issue is dropped unless `outside` keeps it). */
  toRelative: (path: string) => string | null;
  /** An issue located outside the project as it is to be reported (on an in-root config: outsideRootIssue), or null. */
  outside?: (issue: RawIssue, file: string) => RawIssue | null;
  /** What the file watch saw change (null: no watch to vouch for anything; the program re-asks everything). */
  hint?: ChangeHint | null;
  /** A prewarm's check (see HostRequest.prewarm): nobody reads its answer. */
  prewarm?: boolean;
  /** See HostRequest's storedLooked, first and dependentsOf (the last two: a plain TypeScript 5/6 program only). */
  storedLooked?: true;
  first?: string[];
  dependentsOf?: string[];
}

/**
 * How a warm check went (`pending`: see HostReply). "unavailable": no warm answer (no usable API, the host died or
 * failed, over the memory bound, pool full): the command line answers. "timeout": the host was killed mid-check;
 * "cancelled": the caller's signal aborted it (the host killed when working on it, kept when it still waited its turn).
 */
export type WarmOutcome =
  | { status: "ok"; issues: RawIssue[]; info: WarmCheckInfo; files: string[]; pending?: number; dependents?: ProgramDependents }
  | { status: "unavailable"; reason?: string }
  | { status: "timeout" }
  | { status: "cancelled" };

/**
 * The server's warm TypeScript programs, each kept by its own host process (see warm-host.ts): bounded in number
 * and in memory, released when idle; a host that dies or is killed (cancellation, timeout) is replaced by the next
 * check, which builds its program afresh.
 */
export class WarmTsPool {
  private readonly hosts = new Map<string, WarmHost>();
  /** A started host not yet given a program (see prestart). */
  private spare: WarmHost | null = null;
  /** A check has run since the spare started (listed with it or passed it by): it may be released when idle. */
  private spareLeft = false;
  /** Programs that will not be warm in this server (no API, over the memory bound, or their host keeps dying). */
  private readonly refused = new Map<string, string>();
  private readonly deaths = new Map<string, number>();
  private readonly inflight = new Set<Promise<unknown>>();
  private stamp = "";
  private closed = false;
  /** The programs checks were answered from, least recently first (at most `capacity`), by config (see remember). */
  private readonly answered = new Map<string, WarmProgram>();
  /** A check has started: a prewarm builds no further program. */
  private prewarmStopped = false;
  private readonly timer: ReturnType<typeof setInterval>;
  /** Checks asked of hosts so far (tests assert a quiet check, or a one-shot answer from disk, asked none). */
  checksAsked = 0;

  constructor(
    private readonly runtime: Pick<Runtime, "spawnSelf">,
    private readonly root: string,
    private readonly warn: (message: string) => void = () => {},
    /** Where hosts keep incremental state between hosts (null: nowhere; every new host builds afresh). */
    private readonly persist: PersistTarget | null = null,
    /** Programs kept at most (see warmCapacity). */
    readonly capacity = DEFAULT_WARM_PROGRAMS,
    /** The server stops after one check (a one-shot CLI): hosts build nothing after an answer from disk, nothing is left pending. */
    readonly oneShot = false,
  ) {
    this.timer = setInterval(() => this.releaseIdle(), 60_000);
    (this.timer as { unref?: () => void }).unref?.(); // never keeps the process alive just for this
  }

  /** Check one program in its host (started, and the program built, when there is none yet). */
  check(request: WarmRequest): Promise<WarmOutcome> {
    this.spareLeft = true;
    return this.track(this.run(request, true));
  }

  /**
   * A program a check was answered from, and that stays warm (not one failing or over the memory bound: it would be
   * built again at every start for nothing); by config, the latest kind winning (a config that gained references).
   */
  private remember({ kind, typescriptDir, configPath, configFile }: WarmRequest): void {
    this.answered.delete(configPath);
    this.answered.set(configPath, { kind, typescriptDir, configPath, configFile });
    if (this.answered.size > this.capacity) this.answered.delete(this.answered.keys().next().value as string);
  }

  private track(running: Promise<WarmOutcome>): Promise<WarmOutcome> {
    this.inflight.add(running);
    running.finally(() => this.inflight.delete(running)).catch(() => {}); // bookkeeping only: the caller awaits `running` itself
    return running;
  }

  /** The programs checks were answered from, most recently first. */
  programsAnswered(): WarmProgram[] {
    return [...this.answered.values()].reverse();
  }

  /**
   * Build these programs before any check asks (a long-lived server's start, from the programs its project's last
   * checks asked for), one after another, each in the host it is kept in — until a check starts (stopPrewarm). The
   * host builds only where a check would: a program whose stored answer holds is left for the first check to answer
   * from disk. Its answers are not reported; a program that fails is the first check's to meet, as without a
   * prewarm. Returns how many programs answered, and how many of those were left to their stored answer.
   */
  async prewarm(programs: readonly WarmProgram[], limits: { timeoutMs: number; memoryLimitBytes: number }): Promise<{ answered: number; stored: number }> {
    let answered = 0;
    let stored = 0;
    for (const program of programs.slice(0, this.capacity)) {
      if (this.closed || this.prewarmStopped) break;
      const outcome = await this.track(this.run({ ...program, ...limits, toRelative: () => null, hint: null, prewarm: true }));
      if (outcome.status === "ok") answered++;
      if (outcome.status === "ok" && outcome.info.stored) stored++;
      // A spare host with the compiler loaded, for the first check's listing (unless that check has come already).
      if (this.closed || this.prewarmStopped || this.spare) continue;
      this.prestart();
      this.preload(program.typescriptDir);
    }
    return { answered, stored };
  }

  /** A check has started (or the server stops): no further program is prewarmed (the one building goes on). */
  stopPrewarm(): void {
    this.prewarmStopped = true;
  }

  private async run(request: WarmRequest, remember = false): Promise<WarmOutcome> {
    const { typescriptDir, configPath } = request;
    const key = programKey(typescriptDir, request.kind, configPath);
    const refusal = this.refused.get(key);
    if (this.closed || refusal !== undefined) return { status: "unavailable", ...(refusal ? { reason: refusal } : {}) };
    const stamp = resolutionStamp(this.root);
    if (stamp !== this.stamp) {
      this.stamp = stamp;
      for (const host of this.hosts.values()) host.invalidate = true;
    }
    // A program of another compiler or kind for this config (TypeScript upgraded or swapped, references added or removed): never answer from it.
    for (const other of [...this.hosts.keys()]) if (replaces(key, other)) this.release(other);
    // A one-shot check answered from disk asks no host (see one-shot-answer.ts).
    const here =
      this.oneShot && this.persist && request.kind === "project" && !this.hosts.has(key)
        ? storedAnswerHere(typescriptDir, configPath, this.root, this.persist)
        : null;
    if (here?.answer) {
      if (remember) this.remember(request);
      return { status: "ok", ...here.answer, issues: projectIssues(here.answer.issues, request.toRelative, request.outside) };
    }
    if (here?.notice) this.warn(here.notice);
    if (remember) this.checksAsked++;
    // A config a hosted solution already built is a view of that solution, in its host (no host of its own).
    const owner = this.hosts.has(key) ? undefined : this.solutionCovering(key, request);
    const host = owner?.[1] ?? this.hosts.get(key) ?? this.start(key);
    if (!host) return { status: "unavailable" };
    const outcome = await this.ask(owner?.[0] ?? key, host, here ? { ...request, storedLooked: true } : request);
    // svelte-check's and vue-tsc's programs are not prewarmed (a new server builds them at its first check).
    if (remember && outcome.status === "ok" && !this.refused.has(key) && request.kind !== "svelte" && request.kind !== "vue") this.remember(request);
    return outcome;
  }

  /** The live solution host (its key and host) whose solution built this config, for a solution request. */
  private solutionCovering(key: string, request: WarmRequest): [string, WarmHost] | undefined {
    if (request.kind !== "solution") return undefined;
    const prefix = key.slice(0, key.lastIndexOf("\0") + 1);
    const config = normalized(request.configPath);
    return [...this.hosts].find(([other, host]) => other.startsWith(prefix) && host.covers.has(config));
  }

  /** One check in `host`, which keeps the program under `key` (a view's request names its config in `view`). */
  private async ask(key: string, host: WarmHost, request: WarmRequest): Promise<WarmOutcome> {
    const { typescriptDir, configPath } = request;
    this.hosts.delete(key);
    this.hosts.set(key, host);
    const owned = key.slice(key.lastIndexOf("\0") + 1);
    const message: Omit<HostRequest, "id"> = {
      kind: request.kind,
      typescriptDir,
      configPath: owned,
      cwd: this.root,
      configFile: request.configFile,
      invalidate: false,
      hint: request.hint ?? null,
      ...(owned === configPath ? {} : { view: configPath }),
      persist: this.persist,
      ...(request.prewarm ? { prewarm: true } : {}),
      ...(this.oneShot ? { last: true as const } : {}),
      ...(request.storedLooked ? { storedLooked: true as const } : {}),
      ...(request.kind === "project" || request.kind === "vue" ? { first: request.first, dependentsOf: request.dependentsOf } : {}),
    };
    const reply = await host.request(message, request.timeoutMs, request.signal);
    if (this.closed) return { status: "unavailable" }; // closed meanwhile (a re-check ran on): the pool killed it, nothing failed
    if (reply.status === "died") {
      this.forget(key, host);
      this.failed(key, reply.reason ? `${reply.reason} (${configPath})` : `the warm TypeScript host for ${configPath} exited`);
      return { status: "unavailable" };
    }
    if (reply.status === "withdrawn") return { status: "cancelled" };
    if (reply.status !== "answer") {
      this.forget(key, host);
      return { status: reply.status };
    }
    const answer = reply.reply;
    if ("listing" in answer) {
      this.forget(key, host);
      this.failed(key, `the warm TypeScript host for ${configPath} answered a check with a listing`);
      return { status: "unavailable" };
    }
    if (!answer.ok) {
      this.forget(key, host);
      // The host could not answer for what changed (warm-svelte.ts): the command line answers, a new host the next check.
      if (answer.restart) return { status: "unavailable" };
      // An expected fallback (e.g. TypeScript 7's synchronous API under Deno) is one line: the error's, not its stack.
      const reason = answer.error.split("\n", 1)[0]?.replace(/^Error: /, "");
      const [program, checker] = named(request.kind);
      if (answer.unsupported) this.refuse(key, `no warm ${program} for ${configPath} (${reason}); ${checker} runs cold each time`);
      else this.failed(key, `warm ${program} for ${configPath} failed, running ${checker} instead: ${reason}`);
      return { status: "unavailable" };
    }
    this.deaths.delete(key);
    if (answer.info.notice) this.warn(answer.info.notice);
    host.covers = new Set(answer.covers.map(normalized));
    if (answer.rssBytes > request.memoryLimitBytes) {
      this.forget(key, host);
      const mb = (bytes: number) => (bytes / 1024 ** 2).toFixed(0);
      this.refuse(
        key,
        `the warm ${named(request.kind)[0]} for ${configPath} uses ${mb(answer.rssBytes)} MB, over ${mb(request.memoryLimitBytes)} MB: released, ${named(request.kind)[1]} runs cold`,
      );
    }
    const { id: _id, ok: _ok, covers: _covers, rssBytes: _rss, issues, ...rest } = answer;
    return { status: "ok", issues: projectIssues(issues, request.toRelative, request.outside), ...rest };
  }

  /** A new host for a program, releasing the least recently used idle one beyond the bound; null when all are busy. */
  private start(key: string): WarmHost | null {
    if (this.hosts.size >= this.capacity) {
      const idle = [...this.hosts].find(([, host]) => !host.busy);
      if (!idle) return null;
      this.release(idle[0]);
    }
    const host = this.spare ?? this.spawn();
    this.spare = null;
    this.hosts.set(key, host);
    return host;
  }

  /** A host process with no program yet; dropped from the pool once it exits, however. */
  private spawn(): WarmHost {
    const host: WarmHost = new WarmHost(this.runtime.spawnSelf.bind(this.runtime), this.root, () => {
      if (this.spare === host) this.spare = null;
      for (const [key, live] of this.hosts) if (live === host) this.hosts.delete(key);
    });
    return host;
  }

  /** A host started before any check needs it (the server's start): the first program that needs a host takes it. */
  prestart(): void {
    if (this.closed || this.spare) return;
    this.spare = this.spawn();
    this.spareLeft = false;
  }

  /**
   * Have the spare host load the project's compiler while nothing needs it yet, so the first check does not wait for
   * that either. A host that cannot load it (TypeScript 7) stays the spare all the same.
   */
  preload(typescriptDir: string): void {
    void this.spare?.request({ listing: { typescriptDir, configPath: null }, cacheDir: this.persist?.dir ?? null }, PRELOAD_TIMEOUT_MS);
  }

  /**
   * A config's listing (its files and references) from the spare host, started for it when there is none: a server's
   * first check lists its configs with the compiler that host then keeps loaded for the check's first program, rather
   * than in `tsc --showConfig` processes that load it again each. Null: no listing here (no compiler API, the host
   * failed, timed out or the check was cancelled); the caller lists on the command line.
   */
  async list(typescriptDir: string, configPath: string, timeoutMs: number, signal?: AbortSignal): Promise<TsconfigListing | null> {
    this.prestart();
    const host = this.spare;
    this.spareLeft = true;
    if (!host || signal?.aborted) return null;
    // A listing is short and changes nothing: a cancel answers at once, the host (and its compiler) lives; the reply is dropped.
    let stop = () => {};
    const cancelled = new Promise<null>((resolve) => {
      stop = () => resolve(null);
      signal?.addEventListener("abort", stop, { once: true });
    });
    try {
      const listing = { listing: { typescriptDir, configPath }, cacheDir: this.persist?.dir ?? null };
      const result = await Promise.race([host.request(listing, timeoutMs), cancelled]);
      return (result?.status === "answer" && result.reply.ok && "listing" in result.reply && result.reply.listing) || null;
    } finally {
      signal?.removeEventListener("abort", stop);
    }
  }

  /** A host that exited or failed without answering: after MAX_DEATHS in a row, that program stays cold. */
  private failed(key: string, message: string): void {
    const deaths = (this.deaths.get(key) ?? 0) + 1;
    this.deaths.set(key, deaths);
    if (deaths >= MAX_DEATHS) this.refuse(key, `${message} (${deaths} times in a row); tsc runs cold`);
    else this.warn(message);
  }

  private refuse(key: string, message: string): void {
    this.refused.set(key, message);
    this.warn(message);
  }

  /** Drop a host that is gone (or was killed) without killing a successor started since. */
  private forget(key: string, host: WarmHost): void {
    if (this.hosts.get(key) === host) this.hosts.delete(key);
    host.kill();
  }

  private release(key: string): void {
    this.hosts.get(key)?.kill();
    this.hosts.delete(key);
  }

  /** Resident memory the live hosts last reported (their own; a TypeScript 7 host's tsgo child is not included). */
  rssBytes(): number {
    return [...this.hosts.values()].reduce((sum, host) => sum + host.rssBytes, 0);
  }

  /** Resolves once every warm check started so far has finished (or failed). */
  async settled(): Promise<void> {
    while (this.inflight.size) await Promise.all([...this.inflight]);
  }

  private releaseIdle(): void {
    const now = Date.now();
    for (const [key, host] of this.hosts) if (!host.busy && now - host.lastUsed > WARM_IDLE_MS) this.release(key);
    // A spare that checks have left (a solution on the command line, vue-tsc only, nothing selected) goes the same
    // way; one started with the server stays until a first check takes it, however long that is.
    const spare = this.spare;
    if (spare && this.spareLeft && !spare.busy && now - spare.lastUsed > WARM_IDLE_MS) {
      this.spare = null;
      spare.kill();
    }
  }

  /** Stop the idle timer and every host (tests and shutdown). */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    for (const key of [...this.hosts.keys()]) this.release(key);
    this.spare?.kill();
  }
}
