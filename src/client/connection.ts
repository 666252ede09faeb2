import { join } from "node:path";
import { SignalintError } from "../core/errors.ts";
import type { DaemonSupport, LocalConnection, Runtime } from "../runtime/types.ts";
import { forwardingApi, type CallContext, type ServiceApi } from "../service/api.ts";
import type { CheckEvent } from "../service/job/check-events.ts";
import type { Project } from "../service/project/project.ts";
import { VERSION } from "../version.ts";
import { encodeFrame, frameReader } from "../core/framing.ts";
import { DAEMON_MODE, DAEMON_PROTOCOL, readDaemonMessage, type ClientMessage, type DaemonMessage } from "../daemon/protocol.ts";
import { identifyDaemon, readDaemonRecord, readyRecord, signalDaemon, type DaemonRecord } from "../daemon/record.ts";

/** How long a client first waits for a daemon's answer to hello; each time it asks again it waits twice as long. */
export const HELLO_TIMEOUT_MS = 5_000;

/**
 * How long in all a daemon whose socket still accepts may stay silent before it is taken for hung (killed when the
 * OS identifies it, else left alone while this client checks in-process): a busy daemon is asked again, not killed.
 */
export const DAEMON_PATIENCE_MS = 60_000;

/** Why a daemon's socket gave no usable welcome. */
export type Unwelcome =
  /** It will not serve this client; `draining`: it is going away (start another once it is gone). */
  | { outcome: "refused"; reason: string; draining: boolean }
  /** It accepted but did not answer in time (hung, or busy). */
  | { outcome: "silent" }
  /** Nothing accepted, or the connection closed unanswered. */
  | { outcome: "unreachable" }
  /** It answered, but not as the recorded daemon (another token) or not in the protocol. */
  | { outcome: "foreign" };

/** What DaemonConnection.open needs of the recorded daemon: where it listens and the token it must answer with. */
export type DaemonAddress = Pick<DaemonRecord, "socket" | "token">;

/** A connection to the daemon was lost mid-call: the call's outcome is unknown (never read as a result). */
export class DaemonLostError extends SignalintError {
  constructor(message: string) {
    super("daemon_lost", message);
    this.name = "DaemonLostError";
  }
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  onEvent?: (event: CheckEvent) => void;
}

/** A greeted connection to a daemon: ServiceApi calls as frames, results and events matched by call id. */
export class DaemonConnection {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closed = false;
  readonly api: ServiceApi;

  private constructor(
    private readonly connection: LocalConnection,
    readonly welcome: Extract<DaemonMessage, { t: "welcome" }>,
    session: string | undefined,
  ) {
    connection.onClose(() => {
      this.closed = true;
      for (const call of this.pending.values()) call.reject(new DaemonLostError("the Signalint daemon went away during the call"));
      this.pending.clear();
    });
    this.api = forwardingApi((method, params, context = {}) => this.call(method, params, { ...context, session: context.session ?? session }));
  }

  /**
   * Connect and say hello: a connection when the daemon at `address` welcomes this client with the address's token
   * within `timeoutMs`, else why not.
   */
  static async open(
    support: DaemonSupport,
    address: DaemonAddress,
    root: string,
    options: { session?: string; timeoutMs?: number; env?: Record<string, string> } = {},
  ): Promise<DaemonConnection | Unwelcome> {
    // Whatever keeps a connection from opening (no socket, nobody listening, no permission): nothing to greet.
    const connection = await support.connect(address.socket).catch(() => null);
    if (!connection) return { outcome: "unreachable" };
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish({ outcome: "silent" }), options.timeoutMs ?? HELLO_TIMEOUT_MS);
      let settled: DaemonConnection | null = null;
      const finish = (value: DaemonConnection | Unwelcome) => {
        clearTimeout(timer);
        if (!(value instanceof DaemonConnection)) connection.close();
        resolve(value);
      };
      const read = frameReader((raw) => {
        const message = readDaemonMessage(raw);
        if (settled) return settled.receive(message);
        // A welcome without the record's token is not the recorded daemon's (nothing proves who answered).
        if (message?.t === "welcome" && address.token !== null && message.token === address.token) {
          settled = new DaemonConnection(connection, message, options.session);
          return finish(settled);
        }
        finish(message?.t === "refused" ? { outcome: "refused", reason: message.reason, draining: message.draining } : { outcome: "foreign" });
      });
      connection.onData((chunk) => {
        try {
          read(chunk);
        } catch {
          // A broken frame (FrameError): this connection is dropped, the caller sees it close.
          connection.close();
        }
      });
      connection.onClose(() => finish({ outcome: "unreachable" }));
      // The client's environment: every call of this connection runs in it (DESIGN §2, each client's own environment).
      const env = options.env;
      const hello: ClientMessage = { t: "hello", protocol: DAEMON_PROTOCOL, version: VERSION, root, ...(env ? { env } : {}) };
      connection.write(encodeFrame(hello));
    });
  }

  private receive(message: DaemonMessage | null): void {
    if (!message || !("id" in message)) return this.connection.close(); // a daemon that breaks the protocol is dropped
    const call = this.pending.get(message.id);
    if (!call) return this.connection.close();
    if (message.t === "event") return call.onEvent?.(message.event);
    this.pending.delete(message.id);
    if (message.t === "result") call.resolve(message.value);
    else call.reject(new SignalintError(message.code, message.message));
  }

  private call(method: keyof ServiceApi, params: unknown, context: CallContext): Promise<unknown> {
    if (this.closed) return Promise.reject(new DaemonLostError("the connection to the Signalint daemon is closed"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onEvent: context.onEvent });
      const message: ClientMessage = { t: "call", id, method, params: params ?? null, ...(context.session ? { session: context.session } : {}) };
      this.connection.write(encodeFrame(message));
      context.signal?.addEventListener("abort", () => this.connection.write(encodeFrame({ t: "cancel", id } satisfies ClientMessage)), { once: true });
    });
  }

  close(): void {
    this.connection.close();
  }
}

/** Why no daemon could be used; the caller runs in-process and says so in one line. */
export interface NoDaemon {
  reason: string;
}

/** Until the process is gone (polling its pid: a daemon is not this process's child), at most `ms`. */
export async function waitForExit(runtime: Runtime, pid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 50) {
    if (!runtime.processAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !runtime.processAlive(pid);
}

/** The recorded daemon, connected; NoDaemon when it must be left alone; null once it is out of the way (start another). */
async function tryRecorded(
  runtime: Runtime,
  support: DaemonSupport,
  record: DaemonRecord,
  project: Project,
  options: ConnectOptions,
): Promise<DaemonConnection | NoDaemon | null> {
  const patience = options.patienceMs ?? DAEMON_PATIENCE_MS;
  let waited = 0;
  for (let timeout = HELLO_TIMEOUT_MS; ; timeout *= 2) {
    const ask = Math.max(1, Math.min(timeout, patience - waited));
    const answer = await DaemonConnection.open(support, record, project.root, { session: options.session, timeoutMs: ask, env: runtime.environment() });
    if (answer instanceof DaemonConnection) return answer;
    if (answer.outcome === "refused") {
      if (!answer.draining) return { reason: answer.reason };
      // It drains and exits; then this client starts its own.
      await waitForExit(runtime, record.pid, 60_000);
      return null;
    }
    const identity = await identifyDaemon(runtime, record);
    // A stale record (its daemon died, its pid maybe reused) or another process on the socket: never signalled.
    if (identity === "gone" || identity === "other" || answer.outcome === "foreign") return null;
    // Unreachable and not identified (maybe a reused pid): the ownership lock tells whether another may start.
    if (answer.outcome === "unreachable") return identity === "identified" ? unreachable(runtime, support, record, patience) : null;
    waited += ask;
    if (waited < patience) continue;
    if (await signalDaemon(runtime, support, record, "SIGKILL")) {
      await waitForExit(runtime, record.pid, 5_000);
      return null;
    }
    return { reason: `the daemon (pid ${record.pid}) did not answer for ${Math.round(patience / 1000)} s and cannot be identified to be stopped` };
  }
}

/**
 * A live daemon whose socket accepts nothing (it is stopping, or broken): given the same patience to exit, then
 * killed if the OS identifies it (it would hold the project's lock for ever); out of the way either way.
 */
async function unreachable(runtime: Runtime, support: DaemonSupport, record: DaemonRecord, patience: number): Promise<null> {
  if (await waitForExit(runtime, record.pid, patience)) return null;
  if (await signalDaemon(runtime, support, record, "SIGKILL")) await waitForExit(runtime, record.pid, 5_000);
  return null;
}

/** How a client connects: its session (after_edit_check's default baseline) and how long a silent daemon is asked. */
export interface ConnectOptions {
  session?: string;
  /** DAEMON_PATIENCE_MS unless given. */
  patienceMs?: number;
}

/** The private temporary directory daemon logs go to when a cache directory cannot be written (one per process). */
const fallbackLogDirs = new Map<string, Promise<string>>();

/**
 * Where a daemon's messages go: `daemon.log` in the project's cache directory (outside the tree; the state directory
 * is the daemon's to write), else — a read-only HOME, as in many containers — in a private temporary directory, said
 * once on stderr. It outlives this client with the daemon, so it is not removed.
 */
async function daemonLogFile(runtime: Runtime, cacheDir: string): Promise<string> {
  const preferred = join(cacheDir, "daemon.log");
  try {
    await runtime.mkdirp(cacheDir);
    // Appended to by the daemon: a write here is the proof it can be (a probe, as the cache directory's own).
    const probe = join(cacheDir, `.log-probe-${runtime.pid}`);
    await runtime.writeFileAtomic(probe, "");
    await runtime.removeFile(probe);
    return preferred;
  } catch (error) {
    let dir = fallbackLogDirs.get(cacheDir);
    if (!dir) {
      dir = runtime.makeTempDir("signalint-daemon-log-");
      fallbackLogDirs.set(cacheDir, dir);
      const reason = (error as Error).message.slice(0, 200);
      runtime.writeStderr(`signalint: the cache directory ${cacheDir} is not writable (${reason}); the daemon logs to ${join(await dir, "daemon.log")}\n`);
    }
    return join(await dir, "daemon.log");
  }
}

/**
 * The project's daemon, connected: the recorded one when it answers, else a new one started on demand (exactly one
 * when several clients start at once: the ownership lock decides, the others connect to the winner). A silent daemon
 * is asked again for up to `patienceMs`, then killed through its record's pid only when the OS identifies that pid as
 * the recorded daemon (a stale record's pid is never signalled); when none can be used, the reason.
 */
export async function connectDaemon(
  runtime: Runtime,
  support: DaemonSupport,
  project: Project,
  options: ConnectOptions = {},
): Promise<DaemonConnection | NoDaemon> {
  let lastReason = "the daemon did not start";
  for (let attempt = 0; attempt < 6; attempt++) {
    const record = await readDaemonRecord(runtime, project.stateDir);
    if (record && record.root === project.root) {
      const recorded = await tryRecorded(runtime, support, record, project, options);
      if (recorded) return recorded;
    }
    const logFile = await daemonLogFile(runtime, project.cacheDir);
    // Root, state and cache directories as this client resolved them: the daemon runs in the root, where a relative
    // SIGNALINT_STATE_DIR would name another directory (in the tree, and where no client looks for its record), and a
    // relative SIGNALINT_CACHE_DIR one inside the project (refused: a fresh temporary cache each time it starts).
    const env = {
      SIGNALINT_PROJECT_ROOT: project.root,
      SIGNALINT_STATE_DIR: project.stateDir,
      ...(project.cacheBase ? { SIGNALINT_CACHE_DIR: project.cacheBase } : {}),
    };
    const started = await support
      .startDetached(DAEMON_MODE, { cwd: project.root, logFile, env })
      .catch((error: Error) => ({ pid: -1, line: `failed ${error.message}` }));
    const line = started.line ?? "failed it exited before it was ready";
    if (line.startsWith("ready ")) {
      const ready = readyRecord(line.slice(6));
      if (!ready) return { reason: `the new daemon said it was ready without its record: ${line.slice(0, 200)}` };
      const opened = await DaemonConnection.open(support, ready, project.root, { session: options.session, env: runtime.environment() });
      if (opened instanceof DaemonConnection) return opened;
      lastReason = "the new daemon did not answer";
    } else if (line.startsWith("busy ")) {
      // Another client's daemon won the lock: it writes its record once it listens.
      await new Promise((resolve) => setTimeout(resolve, 100 * (attempt + 1)));
    } else {
      return { reason: line.replace(/^failed /, "") };
    }
  }
  return { reason: lastReason };
}
