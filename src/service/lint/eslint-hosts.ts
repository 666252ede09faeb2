// Warm ESLint in a long-lived server: the project's own ESLint command line kept loaded in a host process
// (engines/eslint-host.ts) per node, ESLint package, working directory and client environment, answering a lint as
// the command line would (the same `cli.execute`, the same argv), without the 0.3–1 s of starting Node and loading
// ESLint, its plugins and its config each time. The command line answers whenever a host cannot: files linted with
// type information (their findings read other files, which a kept parser would hold stale), a host that failed,
// died, broke the protocol or answered with an error (exit 2: the command line's own message is the answer).

import { join } from "node:path";
import { environmentFingerprint } from "../../core/environment.ts";
import { frameStream, encodeFrame } from "../../core/framing.ts";
import { ESLINT_HOST_LAUNCHER, readEslintHostReply, type EslintHostAsk, type EslintHostReply } from "../../engines/eslint-host.ts";
import { writeIfChanged } from "../../engines/tsconfig.ts";
import { ENGINE_OUTPUT_LIMIT, type ResolvedEngine } from "../../engines/types.ts";
import { CANCELLED_SPAWN, type Runtime, type SelfProcess, type SpawnResult } from "../../runtime/types.ts";

/** Hosts kept at once (each holds ESLint, its plugins and parsers: 100–500 MB); the least recently used goes first. */
const CAPACITY = 2;
/** A host unused this long is stopped. */
const IDLE_MS = 15 * 60 * 1000;
/** A host over this resident size after a lint is stopped (the next lint starts a new one). */
const MAX_RSS_BYTES = 2 * 1024 ** 3;
/** A host that failed this many times in a row is not started again for its key: the command line answers. */
const MAX_FAILURES = 2;

/** One lint (or fix) asked of a host: the command line's argv (or the fix request) and what it runs with and on. */
export interface EslintHostRun {
  runtime: Runtime;
  resolved: ResolvedEngine;
  cwd: string;
  /** Variables the command line sets (ESLINT_USE_FLAT_CONFIG=false for a legacy config), over the caller's environment. */
  env: Record<string, string>;
  ask: EslintHostAsk;
  /**
   * The configuration inputs this lint rests on, file by file, `path\0hash` (config-inputs.ts configInputEntries: the
   * configs above the root, the root's and each linted directory's up to it, with what they import): a host that saw
   * any of them with another hash (or absent, or present) is stopped, and a new one answers.
   */
  inputs: string[];
  timeoutMs: number;
  signal?: AbortSignal;
}

interface Waiting {
  id: number;
  ask: EslintHostAsk;
  timeoutMs: number;
  settle: (reply: EslintHostReply | "died" | "timeout") => void;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * One host process: requests answered in order, each sent when the one before it is answered (a request cancelled while
 * it waits is never sent), its timeout running from then.
 */
class EslintHost {
  private readonly child: SelfProcess;
  private readonly waiting: Waiting[] = [];
  private nextId = 1;
  private idle: ReturnType<typeof setTimeout> | undefined;
  gone = false;
  /** Stopped by the pool (stale configs, room, a timeout, a cancel, a run that threw, its size): not a failure. */
  retired = false;
  /** Lints it has answered. */
  answers = 0;

  get busy(): boolean {
    return this.waiting.length > 0;
  }
  lastUsed = Date.now();
  /** The configuration inputs it has linted under (see EslintHostRun.inputs). */
  readonly seen = new Map<string, string>();
  /** The CommonJS modules it loaded from outside node_modules, by stamp (size and mtime, taken after the run that loaded them). */
  readonly modules = new Map<string, string>();

  constructor(child: SelfProcess, onGone: () => void) {
    this.child = child;
    child.hold(false);
    child.onData(
      frameStream(
        (message) => this.receive(message),
        () => this.child.kill(),
      ),
    );
    void child.exited.then(() => {
      this.gone = true;
      clearTimeout(this.idle);
      for (const waiting of this.waiting.splice(0)) this.end(waiting, "died");
      onGone();
    });
  }

  lint(ask: EslintHostAsk, timeoutMs: number, signal?: AbortSignal): Promise<EslintHostReply | "died" | "timeout" | "cancelled"> {
    if (signal?.aborted) return Promise.resolve("cancelled");
    if (this.gone) return Promise.resolve("died");
    clearTimeout(this.idle);
    this.lastUsed = Date.now();
    return new Promise((resolve) => {
      const abort = () => {
        const index = this.waiting.indexOf(waiting);
        // The host works on the head only: stopped with it; a request still waiting is just dropped.
        if (index === 0) this.retire();
        else if (index > 0) this.waiting.splice(index, 1);
        resolve("cancelled");
      };
      const waiting: Waiting = {
        id: this.nextId++,
        ask,
        timeoutMs,
        settle: (reply) => {
          signal?.removeEventListener("abort", abort);
          resolve(reply);
        },
      };
      signal?.addEventListener("abort", abort, { once: true });
      this.waiting.push(waiting);
      this.child.hold(true);
      this.sendHead();
    });
  }

  private sendHead(): void {
    const head = this.waiting[0];
    if (!head || head.timer) return;
    let frame: Uint8Array;
    try {
      frame = encodeFrame({ id: head.id, ...head.ask });
    } catch {
      // Over the frame limit (a fix request of many large files): not this host's to answer; the command line does.
      this.retire();
      return;
    }
    head.timer = setTimeout(() => (this.end(head, "timeout"), this.retire()), head.timeoutMs);
    this.child.send(frame);
  }

  private end(waiting: Waiting, reply: EslintHostReply | "died" | "timeout"): void {
    const index = this.waiting.indexOf(waiting);
    if (index >= 0) this.waiting.splice(index, 1);
    clearTimeout(waiting.timer);
    waiting.settle(reply);
  }

  private receive(message: unknown): void {
    const reply = readEslintHostReply(message);
    const head = this.waiting[0];
    // A reply that is not to the request sent (or not a reply): the host cannot be trusted with anything in flight.
    if (!reply || !head?.timer || reply.id !== head.id) return this.child.kill();
    this.lastUsed = Date.now();
    this.answers++;
    this.end(head, reply);
    this.sendHead();
    if (this.waiting.length === 0) {
      this.child.hold(false);
      this.idle = setTimeout(() => this.retire(), IDLE_MS);
      (this.idle as { unref?: () => void }).unref?.();
    }
  }

  /** Stop it for a reason of the pool's: what was waiting on it did not fail (the command line answers it). */
  retire(): void {
    this.retired = true;
    this.child.kill();
  }
}

/** The warm ESLint hosts of one long-lived server. */
export class EslintHosts {
  private readonly hosts = new Map<string, EslintHost>();
  private readonly failures = new Map<string, number>();
  /** Keys whose ESLint loaded a plugin that keeps other files' contents between runs: the command line answers. */
  private readonly memos = new Set<string>();
  private closed = false;
  /** Lints a host answered (tests and the closing benchmarks read it). */
  answered = 0;

  constructor(private readonly cacheDir: string) {}

  /**
   * A warm run's result, as the command line's spawn would give it; null when no host answers (the caller runs the
   * command line). Only a run with a success's exit code (0: nothing found, 1: findings) is answered warm.
   */
  async run(run: EslintHostRun): Promise<SpawnResult | null> {
    const { runtime, resolved } = run;
    // The host runs with the node that runs ESLint's entry, in place of that entry. ESLint's TIMING table is printed
    // when its process exits (a host never does): the command line answers.
    if (this.closed || !resolved.packageDir || resolved.prefixArgs.length === 0 || runtime.env("TIMING")) return null;
    const key = runtime.sha256(
      [
        resolved.command,
        ...resolved.prefixArgs,
        resolved.packageDir,
        run.cwd,
        JSON.stringify(run.env),
        environmentFingerprint(runtime.environment(), runtime.sha256),
      ].join("\0"),
    );
    if ((this.failures.get(key) ?? 0) >= MAX_FAILURES || this.memos.has(key)) return null;
    let host = this.hosts.get(key);
    if (host && (run.inputs.some((input) => stale(host as EslintHost, input)) || (await modulesChanged(runtime, host)))) {
      host.retire();
      if (this.hosts.get(key) === host) this.hosts.delete(key);
      host = undefined;
    }
    if (!host) {
      // The script is written only when a host starts (a lint of a warm host does no I/O of its own here).
      const script = await this.launcher(runtime);
      if (this.closed) return null;
      host = this.hosts.get(key) ?? this.start(key, run, script);
    }
    for (const input of run.inputs) host.seen.set(...split(input));
    const started = Date.now();
    const reply = await host.lint(run.ask, run.timeoutMs, run.signal);
    const durationMs = Date.now() - started;
    if (reply === "cancelled") return CANCELLED_SPAWN;
    // A host that did not answer in time was stopped: the command line answers, in its own time (a run it would end at
    // once, a config's late throw, never hangs the answer).
    if (reply === "timeout") return null;
    if (reply === "died" || "fatal" in reply) {
      // A host that could not load ESLint, or died on its own, failed; one whose run threw (a rule's error, which the
      // command line answers as it fails) or that the pool stopped while this lint waited did not.
      if (reply === "died" ? !host.retired : reply.load) this.failures.set(key, (this.failures.get(key) ?? 0) + 1);
      host.retire();
      return null;
    }
    this.failures.delete(key);
    if (reply.rssBytes > MAX_RSS_BYTES) host.retire();
    await stampModules(runtime, host, reply.modules);
    // A plugin that keeps what it read of other files for the life of its process (eslint-plugin-import's resolutions
    // and export maps, no-unused-modules' scan of the project): only a host's first run is a cold run's equal.
    const first = host.answers === 1;
    if (reply.memo) {
      this.memos.add(key);
      host.retire();
      if (!first) return null;
    }
    if (reply.exitCode !== 0 && reply.exitCode !== 1) return null;
    this.answered++;
    const outputExceeded = Buffer.byteLength(reply.stdout) + Buffer.byteLength(reply.stderr) > ENGINE_OUTPUT_LIMIT;
    return {
      exitCode: reply.exitCode,
      signal: null,
      stdout: reply.stdout,
      stderr: reply.stderr,
      timedOut: false,
      outputExceeded,
      spawnError: null,
      durationMs,
    };
  }

  /** The host script in the cache directory, written when a host starts (again if it was removed since). */
  private async launcher(runtime: Runtime): Promise<string> {
    const script = join(this.cacheDir, "eslint", `host-${runtime.sha256(ESLINT_HOST_LAUNCHER).slice(0, 12)}.cjs`);
    await runtime.mkdirp(join(this.cacheDir, "eslint"));
    await writeIfChanged(runtime, script, ESLINT_HOST_LAUNCHER);
    return script;
  }

  private start(key: string, run: EslintHostRun, script: string): EslintHost {
    const { runtime, resolved } = run;
    // Room for this one: the least recently used host goes (an idle one first; a busy one's lints get the command line).
    if (this.hosts.size >= CAPACITY) {
      const oldest = [...this.hosts.entries()].sort(([, a], [, b]) => Number(a.busy) - Number(b.busy) || a.lastUsed - b.lastUsed)[0];
      if (oldest) {
        oldest[1].retire();
        this.hosts.delete(oldest[0]);
      }
    }
    const child = runtime.startProcess(resolved.command, [...resolved.prefixArgs.slice(0, -1), script, resolved.packageDir as string, resolved.path], {
      cwd: run.cwd,
      env: { NO_COLOR: "1", FORCE_COLOR: "0", ...run.env },
    });
    const host: EslintHost = new EslintHost(child, () => {
      if (this.hosts.get(key) === host) this.hosts.delete(key);
    });
    this.hosts.set(key, host);
    return host;
  }

  /** Stop every host (the server is closing). */
  close(): void {
    this.closed = true;
    for (const host of this.hosts.values()) host.retire();
    this.hosts.clear();
  }
}

const split = (input: string): [string, string] => {
  const at = input.lastIndexOf("\0");
  return [input.slice(0, at), input.slice(at + 1)];
};

const stampOf = async (runtime: Runtime, path: string): Promise<string> => {
  const info = await runtime.stat(path);
  return info ? `${info.size}:${info.mtimeMs}` : "gone";
};

/** Stamp the modules a run reported that the host had not loaded before. */
async function stampModules(runtime: Runtime, host: EslintHost, modules: readonly string[]): Promise<void> {
  const fresh = modules.filter((path) => !host.modules.has(path));
  const stamps = await Promise.all(fresh.map((path) => stampOf(runtime, path)));
  for (const [index, path] of fresh.entries()) host.modules.set(path, stamps[index] as string);
}

/** Whether a module the host holds changed since it was stamped (a local plugin's rule file, a workspace config package). */
async function modulesChanged(runtime: Runtime, host: EslintHost): Promise<boolean> {
  const paths = [...host.modules.keys()];
  const stamps = await Promise.all(paths.map((path) => stampOf(runtime, path)));
  return paths.some((path, index) => host.modules.get(path) !== stamps[index]);
}

/** Whether the host loaded configs under other inputs than `input` names. */
function stale(host: EslintHost, input: string): boolean {
  const [name, hash] = split(input);
  const seen = host.seen.get(name);
  return seen !== undefined && seen !== hash;
}
