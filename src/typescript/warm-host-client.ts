// The server's handle on one warm TypeScript host process (see warm-host.ts for the other end).
import type { SelfProcess } from "../runtime/types.ts";
import { WARM_HOST_MODE, type HostReply, type HostRequest } from "./host-protocol.ts";

/** How one request to a host ended: its answer, or the host is gone (died, or killed for a timeout or a cancel). */
export type HostResult = { status: "answer"; reply: HostReply } | { status: "died" } | { status: "timeout" } | { status: "cancelled" };

/** One host process: requests are answered in order; killing it ends every request still waiting. */
export class WarmHost {
  private readonly child: SelfProcess;
  private readonly waiting = new Map<number, (result: HostResult) => void>();
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
    this.child.onLine((line) => this.receive(line));
    this.child.exited.then(() => {
      this.gone = true;
      for (const settle of [...this.waiting.values()]) settle({ status: "died" });
      onExit();
    });
  }

  get busy(): boolean {
    return this.waiting.size > 0;
  }

  /** Ask for one check; a timeout or an abort kills the host (and so every request queued on it). */
  request(message: Omit<HostRequest, "id">, timeoutMs: number, signal?: AbortSignal): Promise<HostResult> {
    if (signal?.aborted) return Promise.resolve({ status: "cancelled" });
    if (this.gone) return Promise.resolve({ status: "died" });
    const id = this.nextId++;
    this.lastUsed = Date.now();
    return new Promise<HostResult>((resolve) => {
      const timer = setTimeout(() => settle({ status: "timeout" }), timeoutMs);
      const abort = () => settle({ status: "cancelled" });
      const settle = (result: HostResult) => {
        if (!this.waiting.delete(id)) return;
        clearTimeout(timer);
        signal?.removeEventListener("abort", abort);
        if (result.status === "timeout" || result.status === "cancelled") this.kill();
        this.child.hold(this.busy);
        resolve(result);
      };
      this.waiting.set(id, settle);
      signal?.addEventListener("abort", abort, { once: true });
      this.child.hold(true);
      this.child.send(JSON.stringify({ ...message, id, invalidate: this.invalidate || message.invalidate }));
      this.invalidate = false;
    });
  }

  private receive(line: string): void {
    let reply: HostReply;
    try {
      reply = JSON.parse(line) as HostReply;
    } catch {
      return;
    }
    this.rssBytes = reply.rssBytes;
    this.lastUsed = Date.now();
    this.waiting.get(reply.id)?.({ status: "answer", reply });
  }

  /** Kill the process group (the host and a tsgo server it started); waiting requests end as "died". */
  kill(): void {
    this.child.kill();
  }
}
