import { dirname, join } from "node:path";
import { SignalintError } from "../core/errors.ts";
import type { DaemonSupport, LocalConnection, Runtime } from "../runtime/types.ts";
import { callApi, localApi, type ServiceApi } from "../service/api.ts";
import { SignalintService } from "../service/signalint.ts";
import { ensureStateDir, openProject, type Project } from "../service/project/project.ts";
import { VERSION } from "../version.ts";
import { encodeFrame, FrameError, frameReader } from "../core/framing.ts";
import { DAEMON_PROTOCOL, readClientMessage, versionVerdict, type DaemonMessage } from "./protocol.ts";
import { releaseOwnership, takeOwnership } from "../service/project/ownership.ts";
import { legacyRecordFile, readDaemonRecord, recordFile, type DaemonRecord } from "./record.ts";

/** How the daemon is told to run: its project, and how it talks to the process that started it. */
export interface DaemonOptions {
  root?: string;
  /** Writes one line to the process that started it (stdout), which then lets go. */
  announce: (line: string) => void;
  /** Exits the process (after everything is released). */
  exit: (code: number) => void;
}

/**
 * The socket key of a project's daemon, short enough for a Unix socket path on every OS: its real root and its state
 * directory (each state directory has its own owner, so two of one root — SIGNALINT_STATE_DIR — never share a socket).
 */
export function socketKey(runtime: Runtime, realRoot: string, stateDir: string): string {
  return runtime.sha256(`${realRoot}\0${stateDir}`).slice(0, 20);
}

/** One client: its calls in flight (cancellable) and whether it said hello. */
class ClientConnection {
  private greeted = false;
  /** The environment the client said hello with: its calls run in it. */
  private env: Record<string, string> | undefined;
  private readonly calls = new Map<number, AbortController>();

  constructor(
    private readonly connection: LocalConnection,
    private readonly daemon: Daemon,
  ) {
    const read = frameReader((message) => this.receive(message));
    connection.onData((chunk) => {
      try {
        read(chunk);
      } catch {
        // A peer that breaks the framing is dropped; nobody else notices.
        connection.close();
      }
    });
    connection.onClose(() => {
      for (const controller of this.calls.values()) controller.abort();
      this.calls.clear();
    });
  }

  /**
   * Write one message. An answer too large for a frame (or that cannot be serialized) becomes an error to that call
   * (`answer_too_large`), and such an event is dropped: the call fails, the daemon and its other clients go on.
   */
  send(message: DaemonMessage): void {
    let frame: Uint8Array;
    try {
      frame = encodeFrame(message);
    } catch (error) {
      if (message.t !== "result" && message.t !== "error") return;
      // RangeError: a string too long for the runtime to serialize at all (hundreds of MiB).
      const tooLarge = error instanceof FrameError || error instanceof RangeError;
      const reason = tooLarge
        ? `the answer is too large to send (${(error as Error).message}); ask for less (fewer paths, a smaller maxBytes)`
        : `the answer could not be serialized (${String(error).slice(0, 300)})`;
      frame = encodeFrame({ t: "error", id: message.id, code: tooLarge ? "answer_too_large" : "internal_error", message: reason });
    }
    this.connection.write(frame);
  }

  private receive(raw: unknown): void {
    const message = readClientMessage(raw);
    if (!message || (message.t !== "hello" && !this.greeted)) return this.connection.close();
    if (message.t === "hello") {
      const refusal = this.daemon.refusalFor(message.protocol, message.version, message.root);
      if (refusal) {
        this.send({ t: "refused", ...refusal });
        this.connection.close();
        return this.daemon.stopIfDrained();
      }
      this.greeted = true;
      this.env = message.env;
      const { pid, root, token } = this.daemon;
      return this.send({ t: "welcome", protocol: DAEMON_PROTOCOL, version: VERSION, pid, root, token });
    }
    if (message.t === "cancel") return void this.calls.get(message.id)?.abort();
    const controller = new AbortController();
    this.calls.set(message.id, controller);
    const context = {
      signal: controller.signal,
      session: message.session,
      ...(this.env ? { env: this.env } : {}),
      onEvent: (event: unknown) => this.send({ t: "event", id: message.id, event } as DaemonMessage),
    };
    this.daemon
      .call(message.method, message.params, context)
      .then(
        (value) => this.send({ t: "result", id: message.id, value: value ?? null }),
        (error: unknown) => {
          const code = error instanceof SignalintError ? error.code : "internal_error";
          this.send({ t: "error", id: message.id, code, message: error instanceof Error ? error.message : String(error) });
        },
      )
      .finally(() => this.calls.delete(message.id));
  }
}

/** The per-project daemon: the one owner of the project's state, serving ServiceApi calls over a local socket. */
class Daemon {
  private inFlight = 0;
  private lastActivity = Date.now();
  private draining = false;

  constructor(
    readonly pid: number,
    readonly root: string,
    /** The record's secret, sent in every welcome (a client accepts no other). */
    readonly token: string,
    private readonly api: ServiceApi,
    private readonly stop: () => void,
  ) {}

  /**
   * Why a client may not use this daemon (null: it may). Only a newer client makes it drain and exit; an older one
   * of the same protocol is served, of another protocol refused for good (it checks in-process).
   */
  refusalFor(protocol: number, version: string, root: string): { reason: string; draining: boolean } | null {
    if (this.draining) return { reason: "draining", draining: true };
    if (root !== this.root) return { reason: `this daemon serves ${this.root}`, draining: false };
    const verdict = versionVerdict({ version: VERSION, protocol: DAEMON_PROTOCOL }, { version, protocol });
    if (verdict === "refuse") return { reason: `the running daemon is newer (version ${VERSION}, protocol ${DAEMON_PROTOCOL})`, draining: false };
    if (verdict === "replace") {
      this.draining = true;
      return { reason: `version ${VERSION} (protocol ${DAEMON_PROTOCOL}) is being replaced`, draining: true };
    }
    return null;
  }

  /** A draining daemon exits once nothing is in flight. */
  stopIfDrained(): void {
    if (this.draining && this.inFlight === 0) this.stop();
  }

  async call(method: keyof ServiceApi, params: unknown, context: object): Promise<unknown> {
    this.inFlight++;
    this.lastActivity = Date.now();
    try {
      return await callApi(this.api, method, params, context);
    } finally {
      this.inFlight--;
      this.lastActivity = Date.now();
      this.stopIfDrained();
    }
  }

  /** Whether it has been idle (nothing in flight) for at least `ms`. */
  idleFor(ms: number): boolean {
    return this.inFlight === 0 && Date.now() - this.lastActivity >= ms;
  }
}

/** Announce why no daemon runs here and exit; the starting client checks in-process and says so in one line. */
function refuse(options: DaemonOptions, reason: string): () => void {
  options.announce(`failed ${reason.replace(/\s+/g, " ")}`);
  options.exit(1);
  return () => {};
}

/** Why the daemon cannot own `stateDir` (a few bytes written and removed, so a full disk shows too), or null. */
async function stateDirProblem(runtime: Runtime, stateDir: string): Promise<string | null> {
  try {
    await ensureStateDir(runtime, stateDir);
    const probe = join(stateDir, `.daemon-probe-${runtime.pid}`);
    await runtime.writeFileAtomic(probe, `${runtime.pid}\n`);
    await runtime.removeFile(probe);
    return null;
  } catch (error) {
    return `the state directory ${stateDir} is not writable (${(error as Error).message})`;
  }
}

/**
 * Run the daemon for a project: take its ownership lock (or announce `busy <pid>` and exit when a live daemon holds
 * it), open the service (which recovers interrupted fixes), listen on the project's socket, write the record, then
 * announce `ready <record>`. It exits when idle, when its project root or its record disappears (nobody could reach
 * it), or when a client of another version replaces it, releasing the lock, record and socket. Where it cannot write
 * the state directory (unwritable, a full disk) or bind its socket, it announces `failed <why>` and exits: a daemon
 * on a temporary state directory would be found by nobody, and every client would start another.
 */
export async function runDaemon(runtime: Runtime, support: DaemonSupport, options: DaemonOptions): Promise<() => void> {
  // Opened once, unprepared: the state directory is probed here (a daemon never falls back to a temporary one), and
  // the service prepares the rest when it opens the project itself.
  const project = await openProject(runtime, { root: options.root });
  const problem = await stateDirProblem(runtime, project.stateDir);
  if (problem) return refuse(options, problem);
  let holder: number | null;
  try {
    holder = await takeOwnership(runtime, project.stateDir, runtime.pid);
  } catch (error) {
    return refuse(options, `the ownership lock in ${project.stateDir} could not be taken (${(error as Error).message})`);
  }
  if (holder !== null) {
    options.announce(`busy ${holder}`);
    options.exit(0);
    return () => {};
  }
  try {
    return await serve(runtime, support, options, project);
  } catch (error) {
    // Nothing bound or recorded: give the lock back and tell the starter why (it then runs in-process).
    await releaseOwnership(runtime, project.stateDir, runtime.pid);
    return refuse(options, (error as Error).message);
  }
}

/** The longest Unix socket path the OS binds (sun_path less its NUL); a longer one would be cut short silently. */
function socketPathLimit(runtime: Runtime): number | null {
  return runtime.platform === "win32" ? null : runtime.platform === "linux" ? 107 : 103;
}

/** A daemon's socket name: its key and its pid (the pid tells a later daemon whether the socket's owner is gone). */
const SOCKET_NAME = /^[0-9a-f]{20}-(\d+)\.sock$/;

/**
 * Remove the sockets of daemons that were killed (SIGKILL, a crash): nothing else removes them once their project
 * gets no new daemon, and the private socket directory fills up. Only a socket whose pid is gone goes, so a daemon
 * starting or serving meanwhile is never touched (a reused pid merely keeps a dead socket). Named pipes go with
 * their owner.
 */
async function sweepSockets(runtime: Runtime, socket: string): Promise<void> {
  if (runtime.platform === "win32") return;
  const dir = dirname(socket);
  // No socket directory to sweep (or unreadable): nothing to remove.
  for (const entry of await runtime.readDir(dir).catch(() => [])) {
    const pid = Number(SOCKET_NAME.exec(entry.name)?.[1]);
    // Best effort: a socket another sweep removed first, or one that cannot go, stays harmless.
    if (pid > 0 && pid !== runtime.pid && !runtime.processAlive(pid)) await runtime.removeFile(join(dir, entry.name)).catch(() => {});
  }
}

async function serve(runtime: Runtime, support: DaemonSupport, options: DaemonOptions, project: Project): Promise<() => void> {
  const socket = await support.socketPath(`${socketKey(runtime, project.realRoot, project.stateDir)}-${runtime.pid}`);
  const limit = socketPathLimit(runtime);
  const bytes = new TextEncoder().encode(socket).length;
  // Node binds a too-long path cut short, outside the private directory: refused before anything is bound.
  if (limit !== null && bytes > limit) throw new Error(`the socket path ${socket} is ${bytes} bytes, over the OS limit of ${limit} (a shorter TMPDIR helps)`);
  const service = await SignalintService.create(runtime, { root: project.root, prewarm: true });
  await runtime.removeFile(socket).catch(() => {}); // a stale socket of a dead daemon that had this pid
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    clearInterval(timer);
    // Clients still connected are let go (their calls in flight were finished or are lost): closing waits for none.
    for (const connection of connections) connection.close();
    // Stopping: a server already closed has nothing left to close.
    await server.close().catch(() => {});
    // Stopping: a socket already gone (or that cannot go) is swept by the next daemon.
    await runtime.removeFile(socket).catch(() => {});
    await service.close();
    runtime.killSpawned();
    // Stopping: a record that cannot go names a gone pid, which clients replace.
    if ((await readDaemonRecord(runtime, project.stateDir))?.pid === runtime.pid) await runtime.removeFile(recordFile(project.stateDir)).catch(() => {});
    await releaseOwnership(runtime, project.stateDir, runtime.pid);
    options.exit(code);
  };
  // The token proves to a client that whoever answers on the socket wrote this record; the start time lets a client
  // tell this process from a later one given the same pid before it signals it.
  const token = runtime.randomHex(16);
  const startTime = (await runtime.processIdentity(runtime.pid))?.startTime ?? null;
  const daemon = new Daemon(runtime.pid, project.root, token, localApi(service, runtime.pid), () => void stop(0));
  const connections = new Set<LocalConnection>();
  const accept = (connection: LocalConnection) => {
    connections.add(connection);
    connection.onClose(() => connections.delete(connection));
    new ClientConnection(connection, daemon);
  };
  const server = await support.listen(socket, accept).catch((error: Error) => {
    service.close();
    throw error;
  });
  const record: DaemonRecord = {
    pid: runtime.pid,
    startedAt: new Date().toISOString(),
    socket,
    version: VERSION,
    protocol: DAEMON_PROTOCOL,
    root: project.root,
    token,
    startTime,
  };
  await runtime.writeFileAtomic(recordFile(project.stateDir), JSON.stringify(record));
  // An earlier version's record: absent in most state directories.
  await runtime.removeFile(legacyRecordFile(project.stateDir)).catch(() => {});
  // Idle: no call in flight and none made for daemonIdleMinutes (read at start; a restart applies a new value).
  // Unreachable: its root is gone, or its record no longer names it (the state directory was removed, or another
  // daemon replaced it) — no client can find it any more, so it must not live on until idle.
  const idleMs = project.settings.daemon.idleMinutes * 60_000;
  const timer = setInterval(
    async () => {
      if (daemon.idleFor(idleMs) || !(await runtime.stat(project.root))?.isDirectory) return stop(0);
      if ((await readDaemonRecord(runtime, project.stateDir))?.pid !== runtime.pid) return stop(0);
    },
    Math.min(2_000, Math.max(250, idleMs / 4)),
  );
  await sweepSockets(runtime, socket);
  options.announce(`ready ${JSON.stringify(record)}`);
  return () => void stop(0);
}
