// The warm TypeScript host: a child process of the server (Signalint started with WARM_HOST_MODE) that keeps one
// warm program and answers checks of it, one at a time, so the server's own thread never runs the compiler.
import { dirname, join, resolve } from "node:path";
import type * as TS from "typescript";
import type { RawIssue } from "../core/issues.ts";
import type { SelfChannel } from "../runtime/types.ts";
import type { ChangeHint } from "./change-hint.ts";
import { frameStream } from "../core/framing.ts";
import { encodeHostMessage, type HostReply, type HostRequest, HostProtocolError, type ListingRequest, readRequest, versionRefusal } from "./host-protocol.ts";
import { listTsconfig } from "./tsconfig.ts";
import { loadTs7CauseModules, ts7CauseReader, type Ts7CauseModules, type Ts7Project } from "./diagnostic-cause7.ts";
import { diagnosticsToIssues } from "./diagnostics.ts";
import type { WarmCheckInfo } from "./warm-builder.ts";
import { loadTypeScript, WarmTsProgram } from "./warm-program.ts";
import { dependentsOf, type ProgramDependents } from "./dependents.ts";
import { loadTs7Api, ts7DiagnosticsToIssues, ts7Identity, WarmTs7Program } from "./warm-program7.ts";
import { WarmTsSolution } from "./warm-solution.ts";
import { COMPILE_CACHE_DIR, compilerIdentity } from "./persisted-state.ts";
import { SvelteLayoutError, WarmSvelteCheck } from "./warm-svelte.ts";
import { loadVueCompiler, VueLayoutError } from "./vue-parts.ts";
import { VueProgramGuard } from "./vue-program.ts";
import { HostRestartError } from "./host-mode.ts";
import { parseSvelteCheckOutput } from "../engines/svelte-check.ts";

/**
 * One check's answer: issues with absolute file names, the files the program read, the configs a solution built;
 * `pending`: only the request's named files were checked (see HostRequest.first).
 */
type HostedAnswer = { issues: RawIssue[]; info: WarmCheckInfo; files: string[]; covers: string[]; pending?: number; dependents?: ProgramDependents };

/** A hosted program of any kind: one check (`unserved`: why this config is not one it serves), its release. */
interface HostedProgram {
  /** `unsupported`: the compiler has no usable API after all (found when it was loaded, at the first build). */
  check(request: HostRequest): HostedAnswer | { unserved: string } | { unsupported: string } | Promise<HostedAnswer | { unsupported: string }>;
  /** Keep the program's incremental state and this answer on disk. */
  persist?(answer: HostedAnswer): void;
  /** Work left after an answer was sent (building the program after an answer from disk). */
  afterAnswer?(): void | Promise<void>;
  invalidateResolutions(): void;
  close(): void;
}

/** An answer a previous host stored, given as it was: nothing re-checked, no program behind it yet. */
export function fromDisk(stored: Omit<HostedAnswer, "info">): HostedAnswer {
  return { ...stored, info: { reuse: "restored", changedFiles: 0, programFiles: stored.files.length, stored: true } };
}

type Ts = typeof TS;

/** Issues keep absolute file names here: the server maps them to its project root (and counts those outside). */
const absolute = (path: string) => path;

/** The program a request names; null when the project's TypeScript has no usable API. One case per kind. */
async function createProgram(request: HostRequest): Promise<HostedProgram | null> {
  switch (request.kind) {
    case "project": {
      const ts = loadTypeScript(request.typescriptDir);
      if (ts) {
        const persist = request.persist ? { target: request.persist, compiler: compilerIdentity(ts.version, request.typescriptDir) } : null;
        return hostedProject(ts, new WarmTsProgram(ts, request.configPath, persist), true);
      }
      const persist = request.persist ? { target: request.persist, compiler: ts7Identity(request.typescriptDir) } : null;
      const program = new WarmTs7Program(request.configPath, request.cwd, persist);
      // The API and the cause modules are loaded when tsgo is to start: an answer from disk needs neither (loading
      // them took 50–70 ms of a one-shot CI check answered from its cache).
      let causeModules: Ts7CauseModules | null = null;
      const loaded = async () => {
        if (!program.needsApi) return true;
        const Api = await loadTs7Api(request.typescriptDir);
        if (!Api) return false;
        causeModules = await loadTs7CauseModules(request.typescriptDir);
        program.useApi(Api);
        return true;
      };
      return {
        check: async (asked) => {
          if (asked.storedLooked) program.skipStoredAnswer();
          const stored = program.storedAnswer(asked.prewarm === true) as Omit<HostedAnswer, "info"> | null;
          if (stored) return fromDisk(stored);
          if (!(await loaded())) return { unsupported: NO_API };
          const result = program.check(asked.hint ?? null);
          const project = program.currentProject() as Ts7Project | undefined;
          const causesOf = causeModules && project ? ts7CauseReader(causeModules, project, absolute) : undefined;
          const issues = ts7DiagnosticsToIssues(result.diagnostics, absolute, asked.configFile, causesOf as Parameters<typeof ts7DiagnosticsToIssues>[3]);
          return { issues, info: result.info, files: program.fileNames(), covers: [] };
        },
        persist: ({ issues, files, covers }) => program.persist({ issues, files, covers }),
        afterAnswer: async () => {
          // A prewarm's look leaves the stored answer for the first check: nothing to build, nothing to load.
          if (program.answeredFromDisk && (await loaded())) program.warmUp();
        },
        invalidateResolutions: () => program.invalidateResolutions(),
        close: () => program.close(),
      };
    }
    case "solution": {
      // TypeScript 7's API cannot build: its solutions keep the command line (the server never asks for them).
      const ts = loadTypeScript(request.typescriptDir);
      if (!ts) return null;
      const persist = request.persist ? { target: request.persist, compiler: compilerIdentity(ts.version, request.typescriptDir) } : null;
      const solution = new WarmTsSolution(ts, request.configPath, persist);
      const views = new Map<string, WarmTsSolution>();
      // One object per config checked (a view keeps its own state on disk and its own answer from it).
      const targetOf = (view: string | undefined) => {
        if (!view) return solution;
        let target = views.get(view);
        if (!target) views.set(view, (target = solution.view(view)));
        return target;
      };
      let last = solution;
      return {
        check: ({ view, configFile, hint, prewarm }) => {
          const target = (last = targetOf(view));
          const stored = target.storedAnswer(prewarm === true) as Omit<HostedAnswer, "info"> | null;
          if (stored) return fromDisk(stored);
          const result = target.check(hint ?? null);
          if (!result) return { unserved: "it is not a build this TypeScript serves warm" };
          const issues = diagnosticsToIssues(ts, result.diagnostics, absolute, configFile, (diagnostic) => target.programOf(diagnostic));
          return { issues, info: result.info, files: target.fileNames(), covers: solution.coveredConfigs() };
        },
        persist: ({ issues, files, covers }) => last.persist({ issues, files, covers }),
        afterAnswer: () => last.warmUp(),
        invalidateResolutions: () => solution.invalidateResolutions(),
        close: () => {},
      };
    }
    case "vue":
      return hostedVue(request);
    case "svelte": {
      const workspace = dirname(request.configPath);
      const checker = new WarmSvelteCheck(request.typescriptDir, request.configPath, request.cwd);
      // The host runs in the project root, where the command line runs svelte-check (warm-host-client.ts).
      return {
        check: async ({ hint }) => {
          const answer = await checker.check(hint ?? null);
          // svelte-check's own output, read as the command line's is (paths relative to the workspace, made absolute).
          const parsed = parseSvelteCheckOutput(
            { stdout: answer.output, stderr: "", exitCode: 0, signal: null, timedOut: false, outputExceeded: false, spawnError: null, durationMs: 0 },
            (file) => resolve(workspace, file),
          );
          if (!parsed.ok) throw new Error(parsed.message);
          const info = { reuse: answer.reuse, changedFiles: answer.changedFiles, programFiles: answer.programFiles };
          return { issues: parsed.issues, info, files: [], covers: [] };
        },
        invalidateResolutions: () => checker.invalidate(),
        close: () => checker.close(),
      };
    }
  }
}

/**
 * A TypeScript 5/6 program's checks (`causes`: each issue names the declarations it is about, read from the program —
 * not for vue-tsc's, whose positions in a .vue file are not its generated code's).
 */
function hostedProject(ts: Ts, program: WarmTsProgram, causes: boolean): HostedProgram {
  return {
    check: (asked) => {
      const stored = program.storedAnswer(asked.prewarm === true) as Omit<HostedAnswer, "info"> | null;
      if (stored) return fromDisk(stored);
      const result: ReturnType<WarmTsProgram["checkFirst"]> = asked.first
        ? program.checkFirst(asked.hint ?? null, asked.first)
        : program.check(asked.hint ?? null);
      if (!result) return { unserved: program.unserved };
      const current = program.currentProgram();
      // The named files it holds and the files whose types they reach (of a file it does not hold it knows nothing).
      const dependents = asked.dependentsOf && current ? dependentsOf(ts, current, asked.dependentsOf) : undefined;
      return {
        issues: diagnosticsToIssues(ts, result.diagnostics, absolute, asked.configFile, causes ? current : undefined),
        info: result.info,
        files: program.fileNames(),
        covers: [],
        ...(result.pending !== undefined ? { pending: result.pending } : {}),
        ...(dependents ? { dependents } : {}),
      };
    },
    persist: ({ issues, files, covers }) => program.persist({ issues, files, covers }),
    afterAnswer: () => program.warmUp(),
    invalidateResolutions: () => program.invalidateResolutions(),
    close: () => {},
  };
}

/**
 * A program the project's scripts run vue-tsc on, kept by the project's own vue-tsc (vue-parts.ts; `typescriptDir` is
 * vue-tsc's package): a warm program of the compiler vue-tsc makes, not persisted, guarded by vue-program.ts (what
 * needs a new host, Volar's state around each build); vue-tsc's own "extensions changed" needs a new host too.
 */
function hostedVue(request: HostRequest): HostedProgram {
  const compiler = loadVueCompiler(request.typescriptDir, request.configPath);
  const guard = new VueProgramGuard(compiler, request.cwd);
  const program = new WarmTsProgram(compiler.ts, request.configPath, null, guard.hooks);
  const hosted = hostedProject(compiler.ts, program, false);
  return {
    ...hosted,
    check: (asked) => {
      guard.beforeCheck();
      try {
        const answer = hosted.check(asked);
        guard.afterCheck();
        return answer;
      } catch (error) {
        // vue-tsc's own retry when the config names other extensions: a new host loads them (vue-parts.ts asks first).
        if (/extensions changed/i.test((error as Error).message)) throw new HostRestartError("vue-tsc's extensions changed");
        throw error;
      }
    },
    invalidateResolutions: () => guard.restartWith("a package install: vue-tsc and its plugins are loaded again in a new host"),
  };
}

/**
 * A config's listing with the compiler the request names (loaded here once, for the program this host keeps next), or
 * only the compiler loaded. It builds nothing and leaves the host's program as it is; a compiler without the API
 * (TypeScript 7) is unsupported.
 */
function listing(request: ListingRequest, host: HostProcess): HostReply {
  const { id, listing: asked } = request;
  try {
    const ts = loadTypeScript(asked.typescriptDir);
    if (!ts) return failure(host, id, true, NO_API);
    return { id, ok: true, listing: asked.configPath === null ? null : listTsconfig(ts, asked.configPath), rssBytes: host.rssBytes() };
  } catch (error) {
    return failure(host, id, false, (error as Error).stack ?? String(error));
  }
}

/** Why a compiler is not served warm: it has no compiler API (TypeScript 7). */
const NO_API = "this TypeScript has no usable compiler API";

/** A request the host could not serve (`unsupported`: its compiler or config is not one a warm program serves). */
function failure(host: HostProcess, id: number, unsupported: boolean, error: string, restart = false): HostReply {
  return { id, ok: false, unsupported, error, rssBytes: host.rssBytes(), ...(restart ? { restart: true as const } : {}) };
}

/** What the host needs from the process it runs in. */
export interface HostProcess {
  /** This process's resident memory, in bytes. */
  rssBytes(): number;
  writeStderr(text: string): void;
  /** End the process (0: the server is gone; 1: the server broke the protocol). */
  exit(code: number): void;
  /** Node's compile cache (see Runtime's shell): the compiler loaded once is compiled code on disk for the next host. */
  compileCache?: { enable(dir: string): void; flush(): void };
}

/**
 * Serve checks until stdin closes: each request is answered in order (the next waits while one builds or checks).
 * A failed check drops the program (the next request builds a new one). A request of another HOST_PROTOCOL is answered
 * as unsupported; a broken frame or a message that is not a request ends the host loudly: the server then settles
 * whatever it was waiting for.
 */
export function runWarmHost(channel: SelfChannel, host: HostProcess): void {
  let program: HostedProgram | null = null;
  let queue = Promise.resolve();
  // A failure to write state costs the next host its head start, never an answer: said on stderr.
  const persist = (answer: HostedAnswer) => {
    try {
      program?.persist?.(answer);
    } catch (error) {
      host.writeStderr(`signalint warm host: persisting TypeScript state failed: ${(error as Error).message}\n`);
    }
  };
  // A failure here is the next check's to meet (it builds afresh), never this answer's.
  const afterAnswer = async () => {
    try {
      await program?.afterAnswer?.();
    } catch (error) {
      host.writeStderr(`signalint warm host: building after an answer from disk failed: ${(error as Error).message}\n`);
    }
  };
  // The project's compiler is most of a cold check's start (0.45 s → 0.25 s under Node 26 with its compiled code kept).
  // It is kept in the project's cache directory, so a CI cache step restores it too; written once the first request
  // has loaded the compiler (a host is killed, never exits on its own, so Node would not write it).
  let compiled: "off" | "on" | "written" = "off";
  const useCompileCache = (request: HostRequest | ListingRequest) => {
    const dir = "listing" in request ? request.cacheDir : request.persist?.dir;
    if (compiled !== "off" || !dir || !host.compileCache) return;
    host.compileCache.enable(join(dir, COMPILE_CACHE_DIR));
    compiled = "on";
  };
  const answer = async (request: HostRequest | ListingRequest): Promise<HostReply> => {
    useCompileCache(request);
    if ("listing" in request) return listing(request, host);
    try {
      program ??= await createProgram(request);
      if (!program) return failure(host, request.id, true, NO_API);
      if (request.invalidate) program.invalidateResolutions();
      const result = await program.check(request);
      if ("unsupported" in result) {
        program = null;
        return failure(host, request.id, true, result.unsupported);
      }
      if ("unserved" in result) return failure(host, request.id, false, `the config is not one a warm program serves: ${result.unserved}`);
      return { id: request.id, ok: true, ...result, rssBytes: host.rssBytes() };
    } catch (error) {
      program?.close();
      program = null;
      if (error instanceof HostRestartError) return failure(host, request.id, false, error.message, true);
      if (error instanceof SvelteLayoutError) return failure(host, request.id, true, `svelte-check is not kept warm: ${error.message}`);
      if (error instanceof VueLayoutError) return failure(host, request.id, true, `vue-tsc is not kept warm: ${error.message}`);
      return failure(host, request.id, false, (error as Error).stack ?? String(error));
    }
  };
  // A broken frame, or a message that is not a request, ends the host loudly.
  const fail = (error: Error) => {
    host.writeStderr(`signalint warm host: ${error.message}\n`);
    program?.close();
    host.exit(1);
  };
  /** The channel's messages, read from its frames (core/framing.ts). */
  const listen = (onMessage: (message: unknown) => void, onEnd: () => void) => channel.listen(frameStream(onMessage, fail), onEnd);
  listen(
    (message) => {
      let request: HostRequest | ListingRequest;
      try {
        request = readRequest(message);
      } catch (error) {
        // A request of another protocol version is answered (unsupported: the server's command line checks) and the
        // host goes on; anything else is a broken server.
        if (!(error instanceof HostProtocolError && error.code === "protocol_version" && error.id !== undefined)) return fail(error as Error);
        const refusal = versionRefusal(error.id, error.message, host.rssBytes());
        queue = queue.then(() => channel.send(encodeHostMessage(refusal)));
        return;
      }
      queue = queue.then(async () => {
        const reply = await answer(request);
        if (compiled === "on" && reply.ok) {
          host.compileCache?.flush();
          compiled = "written";
        }
        // A first build's state is written before its answer (a one-shot CLI run may stop the host right after it);
        // an incremental check's after, so the answer does not wait for it.
        // A named-files answer is not the program's: nothing is stored from it, and its check goes on at the next request.
        const checked = reply.ok && "info" in reply && reply.pending === undefined ? reply : null;
        const first = checked && (checked.info.reuse === "full" || checked.info.reuse === "restored");
        if (checked && first) persist(checked);
        // The whole reply reaches the server before the work that follows (a build after an answer from disk takes
        // seconds without yielding: a reply still in Node's write queue waited for it, 1.5 s → 6.8 s at 5,000 files).
        await channel.send(encodeHostMessage(reply));
        if (checked && !first) persist(checked);
        if (checked && !("last" in request && request.last)) await afterAnswer();
      });
    },
    () => {
      program?.close();
      host.exit(0);
    },
  );
}
