// The server's handle on one warm TypeScript host process (see warm-host.ts for the other end).
import { frameStream } from "../core/framing.ts";
import type { SelfProcess } from "../runtime/types.ts";
import { encodeHostMessage, type HostReply, type HostRequest, type ListingRequest, readReply, WARM_HOST_MODE } from "./host-protocol.ts";

/**
 * How one request to a host ended: its answer, or the host is gone (died — `reason` when it broke the protocol —, or
 * killed for a timeout or a cancel of the request it was working on), or `withdrawn`: cancelled before the host took
 * it up, the host kept for the requests of other clients queued with it.
 */
export type HostResult =
  | { status: "answer"; reply: HostReply }
  | { status: "died"; reason?: string }
  | { status: "timeout" }
  | { status: "cancelled" }
  | { status: "withdrawn" };

interface Pending {
  settle(result: HostResult): void;
  /** Start the request's timeout (once the host works on it). */
  start(): void;
  started: boolean;
}

/**
 * One host process: requests are answered in order; killing it ends every request still waiting. A request's timeout
 * runs from when the host takes it up — when every request before it has been answered — so a request queued behind
 * a long build never times out (and kills the shared host) for time it spent waiting.
 */
export class WarmHost {
  private readonly child: SelfProcess;
  /** Requests sent and not yet settled, in the order the host answers them. */
  private readonly waiting = new Map<number, Pending>();
  private nextId = 1;
  private gone = false;
  /** Set when module resolutions may have moved since its last check (sent with the next request). */
  invalidate = false;
  lastUsed = Date.now();
  rssBytes = 0;
  /** The configs a hosted solution has built, as its last answer named them (views of it serve these). */
  covers: ReadonlySet<string> = new Set();

  /** `onExit` is told when the process has exited, however (the pool then starts a new one for the next check). */
  constructor(spawnSelf: (mode: string, cwd: string) => SelfProcess, cwd: string, onExit: () => void) {
    this.child = spawnSelf(WARM_HOST_MODE, cwd);
    this.child.hold(false);
    this.child.onData(
      frameStream(
        (message) => this.receive(message),
        (error) => this.broken(error.message),
      ),
    );
    this.child.exited.then(() => {
      this.gone = true;
      this.settleAll({ status: "died" });
      onExit();
    });
  }

  /** The host's process id (undefined when it could not be started). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  get busy(): boolean {
    return this.waiting.size > 0;
  }

  /**
   * Ask for one check (or a listing). A timeout, or an abort while the host works on it, kills the host (and so every request queued
   * on it). An abort while it still waits its turn answers the caller at once (`withdrawn`); the host, shared by every
   * client of a daemon, keeps working for the others and reaches it later, and that reply is dropped.
   */
  request(message: Omit<HostRequest, "id"> | Omit<ListingRequest, "id">, timeoutMs: number, signal?: AbortSignal): Promise<HostResult> {
    if (signal?.aborted) return Promise.resolve({ status: "cancelled" });
    if (this.gone) return Promise.resolve({ status: "died" });
    const id = this.nextId++;
    this.lastUsed = Date.now();
    return new Promise<HostResult>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const abort = () => {
        if (pending.started) return settle({ status: "cancelled" });
        signal?.removeEventListener("abort", abort);
        resolve({ status: "withdrawn" });
      };
      // Settling a withdrawn request (its reply, a timeout, the host's death) resolves nothing more: its caller has gone.
      const settle = (result: HostResult) => {
        if (!this.waiting.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener("abort", abort);
        if (result.status === "timeout" || result.status === "cancelled") this.kill();
        else this.startNext();
        this.child.hold(this.busy);
        resolve(result);
      };
      const pending: Pending = {
        settle,
        started: false,
        start: () => {
          pending.started = true;
          timer = setTimeout(() => settle({ status: "timeout" }), timeoutMs);
        },
      };
      this.waiting.set(id, pending);
      signal?.addEventListener("abort", abort, { once: true });
      this.child.hold(true);
      // A listing builds nothing: the next check still redoes the resolutions.
      if ("listing" in message) this.child.send(encodeHostMessage({ ...message, id }));
      else {
        this.child.send(encodeHostMessage({ ...message, id, invalidate: this.invalidate || message.invalidate }));
        this.invalidate = false;
      }
      this.startNext();
    });
  }

  /** The host answers in order: the oldest request still waiting is the one it works on. */
  private startNext(): void {
    const head = this.waiting.values().next().value;
    if (head && !head.started) head.start();
  }

  private receive(message: unknown): void {
    let reply: HostReply;
    try {
      reply = readReply(message);
    } catch (error) {
      return this.broken((error as Error).message);
    }
    const pending = this.waiting.get(reply.id);
    if (!pending) return this.broken(`a reply to request ${reply.id}, which is not waiting`);
    this.rssBytes = reply.rssBytes;
    this.lastUsed = Date.now();
    pending.settle({ status: "answer", reply });
  }

  /** A host that broke the protocol cannot be trusted with anything in flight: every request ends, the host is killed. */
  private broken(reason: string): void {
    this.gone = true;
    this.settleAll({ status: "died", reason: `the warm TypeScript host broke the protocol: ${reason}` });
    this.kill();
  }

  private settleAll(result: HostResult): void {
    for (const pending of [...this.waiting.values()]) pending.settle(result);
  }

  /** Kill the process group (the host and a tsgo server it started); waiting requests end as "died". */
  kill(): void {
    this.child.kill();
  }
}
