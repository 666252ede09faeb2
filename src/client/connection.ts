import { join } from "node:path";
import { SignalintError } from "../core/errors.ts";
import type { DaemonSupport, LocalConnection, Runtime } from "../runtime/types.ts";
import { API_METHODS, type CallContext, type ServiceApi } from "../service/api.ts";
import type { CheckEvent } from "../service/check/check-events.ts";
import type { Project } from "../service/project/project.ts";
import { VERSION } from "../version.ts";
import { encodeFrame, frameReader } from "../daemon/framing.ts";
import { DAEMON_MODE, DAEMON_PROTOCOL, readDaemonMessage, type ClientMessage, type DaemonMessage } from "../daemon/protocol.ts";
import { readDaemonRecord, type DaemonRecord } from "../daemon/record.ts";

/** How long a daemon may take to answer hello before it is taken for hung (killed and replaced). */
export const HELLO_TIMEOUT_MS = 5_000;

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
    const call =
      (method: keyof ServiceApi) =>
      (params: unknown, context: CallContext = {}) =>
        this.call(method, params, { ...context, session: context.session ?? session });
    this.api = Object.fromEntries(API_METHODS.map((method) => [method, call(method)])) as unknown as ServiceApi;
  }

  /** Connect and say hello; null when nothing answers as a daemon of this version for this root within the timeout. */
  static async open(support: DaemonSupport, socket: string, root: string, session?: string): Promise<DaemonConnection | { refused: string } | null> {
    const connection = await support.connect(socket).catch(() => null);
    if (!connection) return null;
    return new Promise((resolve) => {
      const timer = setTimeout(() => finish(null), HELLO_TIMEOUT_MS);
      let settled: DaemonConnection | null = null;
      const finish = (value: DaemonConnection | { refused: string } | null) => {
        clearTimeout(timer);
        if (value === null || "refused" in value) connection.close();
        resolve(value);
      };
      const read = frameReader((raw) => {
        const message = readDaemonMessage(raw);
        if (settled) return settled.receive(message);
        if (message?.t === "welcome") {
          settled = new DaemonConnection(connection, message, session);
          return finish(settled);
        }
        finish(message?.t === "refused" ? { refused: message.reason } : null);
      });
      connection.onData((chunk) => {
        try {
          read(chunk);
        } catch {
          connection.close();
        }
      });
      connection.onClose(() => finish(null));
      const hello: ClientMessage = { t: "hello", protocol: DAEMON_PROTOCOL, version: VERSION, root };
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

/** Try the recorded daemon: a connection, or null once it is out of the way (exited, dead, or killed as hung). */
async function tryRecorded(
  runtime: Runtime,
  support: DaemonSupport,
  record: DaemonRecord,
  project: Project,
  session?: string,
): Promise<DaemonConnection | null> {
  const opened = await DaemonConnection.open(support, record.socket, project.root, session);
  if (opened instanceof DaemonConnection) return opened;
  if (opened && "refused" in opened) {
    // Another version drains and exits; then this client starts its own.
    await waitForExit(runtime, record.pid, 60_000);
    return null;
  }
  if (!runtime.processAlive(record.pid)) return null; // a stale record: its daemon died
  // Alive but silent: a hung daemon (it accepted on our private socket, or holds it): kill it and replace it.
  support.kill(record.pid, "SIGKILL");
  await waitForExit(runtime, record.pid, 5_000);
  return null;
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
 * when several clients start at once: the ownership lock decides, the others connect to the winner). A hung daemon
 * is killed through its record's pid and replaced; when none can run, the reason.
 */
export async function connectDaemon(runtime: Runtime, support: DaemonSupport, project: Project, session?: string): Promise<DaemonConnection | NoDaemon> {
  let lastReason = "the daemon did not start";
  for (let attempt = 0; attempt < 6; attempt++) {
    const record = await readDaemonRecord(runtime, project.stateDir);
    if (record && record.root === project.root) {
      const recorded = await tryRecorded(runtime, support, record, project, session);
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
      const ready = JSON.parse(line.slice(6)) as DaemonRecord;
      const opened = await DaemonConnection.open(support, ready.socket, project.root, session);
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
