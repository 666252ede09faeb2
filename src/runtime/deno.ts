import { createHash, createHmac, randomBytes } from "node:crypto";
import { ProcessGroups, WATCHDOG_SCRIPT, type WatchdogPipe } from "./process-groups.ts";
import { READ_NULL, readFilesInSlices, STAT_NULL, syncOrNull, type SyncFiles } from "./batch-read.ts";
import { processIdentityVia } from "./process-identity.ts";
import { denoDaemonSupport, processAliveDeno, writeNewFileDeno } from "./daemon-deno.ts";
import { grantedFlags, selfChannelDeno, spawnSelfDeno, startProcessDeno } from "./self-deno.ts";
import { denoShell } from "./shell-deno.ts";
import { mkdirPrivateDeno } from "./private-dir-deno.ts";
import { denoTotalMemory } from "./memory-deno.ts";
import { ABSENT_KINDS, FsError, ifExists, ifMissing, type FsErrorKind } from "../core/errors.ts";
import {
  CANCELLED_SPAWN,
  type DirEntry,
  type FileInfo,
  type Runtime,
  type SpawnOptions,
  type SpawnResult,
  type TreeWatch,
  type TreeWatchOptions,
} from "./types.ts";

// Only the slice of the Deno namespace this adapter uses; the source must type-check without Deno's lib.
// deno-lint-ignore no-explicit-any
declare const Deno: any;

const PIPE_GRACE_MS = 2000;

function killTree(child: { pid: number; kill(signal?: string): void }): void {
  try {
    if (Deno.build.os === "windows") {
      new Deno.Command("taskkill", { args: ["/pid", String(child.pid), "/T", "/F"], stdout: "null", stderr: "null" }).spawn();
    } else {
      Deno.kill(-child.pid, "SIGKILL");
    }
  } catch {
    // The group may be gone already: the single process is tried next.
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }
}

/** Kill a process group by id (the group's leader pid). */
function killGroup(pgid: number): void {
  killTree({ pid: pgid, kill: () => {} });
}

/** Start the watchdog (see process-groups.ts) in its own session, holding none of this process's stdio. */
function startWatchdog(): WatchdogPipe | null {
  let alive = true;
  let child;
  try {
    child = new Deno.Command("/bin/sh", { args: ["-c", WATCHDOG_SCRIPT], stdin: "piped", stdout: "null", stderr: "null", detached: true }).spawn();
  } catch {
    // No /bin/sh or no permission to spawn it: no watchdog (the caller says so).
    return null;
  }
  // Keeps neither a finished CLI check nor the server alive.
  child.unref();
  child.status.then(
    () => (alive = false),
    () => (alive = false),
  );
  const writer = child.stdin.getWriter();
  const encoder = new TextEncoder();
  return {
    write: (line) => {
      // A watchdog that died: later writes are skipped (alive says so).
      if (alive) writer.write(encoder.encode(`${line}\n`)).catch(() => (alive = false));
      return alive;
    },
  };
}

async function drain(stream: ReadableStream<Uint8Array>, onChunk: (chunk: Uint8Array) => boolean): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (onChunk(value)) chunks.push(value);
  }
  return chunks;
}

function decode(chunks: Uint8Array[]): string {
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(joined);
}

/** This process's environment with `extra` applied (a value undefined removes the variable). */
function buildEnv(extra: SpawnOptions["env"]): Record<string, string> {
  const env: Record<string, string> = Deno.env.toObject();
  for (const [key, value] of Object.entries(extra ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

async function spawnDeno(command: string, args: readonly string[], options: SpawnOptions, groups: ProcessGroups): Promise<SpawnResult> {
  if (options.signal?.aborted) return CANCELLED_SPAWN;
  const started = performance.now();
  const env = buildEnv(options.env);
  let child;
  try {
    child = new Deno.Command(command, {
      args: [...args],
      cwd: options.cwd,
      env,
      clearEnv: true,
      stdin: options.input === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      // Own process group so that a timeout kills the engine and its children.
      detached: Deno.build.os !== "windows",
    }).spawn();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { exitCode: null, signal: null, stdout: "", stderr: "", timedOut: false, outputExceeded: false, spawnError: message, durationMs: 0 };
  }
  // Registered with the watchdog until the run is over, so the group dies with this process however it ends.
  const release = groups.track(child.pid, options.signal);
  if (options.input !== undefined) {
    const writer = child.stdin.getWriter();
    const written = writer.write(new TextEncoder().encode(options.input)).then(() => writer.close());
    // An engine that exits before reading all of it closes the pipe: its exit code says what happened.
    written.catch(() => {});
  }
  let bytes = 0;
  let timedOut = false;
  let outputExceeded = false;
  const onChunk = (chunk: Uint8Array): boolean => {
    bytes += chunk.length;
    if (bytes > options.maxOutputBytes) {
      if (!outputExceeded) killTree(child);
      outputExceeded = true;
      return false;
    }
    return true;
  };
  const timer = setTimeout(() => {
    timedOut = true;
    killTree(child);
  }, options.timeoutMs);
  const status = child.status.then((value: { code: number; signal: string | null }) => {
    grace = setTimeout(() => killTree(child), PIPE_GRACE_MS);
    return value;
  });
  let grace: ReturnType<typeof setTimeout> | undefined;
  const [stdout, stderr, exit] = await Promise.all([drain(child.stdout, onChunk), drain(child.stderr, onChunk), status]);
  clearTimeout(timer);
  if (grace) clearTimeout(grace);
  if (timedOut || outputExceeded) killTree(child);
  release();
  return {
    exitCode: exit.signal ? null : exit.code,
    signal: exit.signal ?? null,
    stdout: decode(stdout),
    stderr: decode(stderr),
    timedOut,
    outputExceeded,
    spawnError: null,
    durationMs: Math.round(performance.now() - started),
  };
}

/** Deno's error classes (and, for those without a class, the errno code it attaches), mapped once into core/errors.ts. */
function fsKind(error: Error): FsErrorKind {
  const classes: [string, FsErrorKind][] = [
    ["NotFound", "not_found"],
    ["NotADirectory", "not_a_directory"],
    ["FilesystemLoop", "symlink_loop"],
    ["PermissionDenied", "permission_denied"],
    ["NotCapable", "permission_denied"],
    ["AlreadyExists", "already_exists"],
  ];
  for (const [name, kind] of classes) if (Deno.errors[name] && error instanceof Deno.errors[name]) return kind;
  return (error as { code?: string }).code === "ENAMETOOLONG" ? "name_too_long" : "other";
}

function toFsError(error: unknown): unknown {
  if (error instanceof FsError || !(error instanceof Error)) return error;
  return new FsError(fsKind(error), error.message, { cause: error });
}

/** Run a file-system call, its failure reported as an FsError. */
async function fsCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toFsError(error);
  }
}

/** Null when the path is missing or not reachable; `alsoNull` adds kinds the caller treats the same. */
async function orNull<T>(run: () => Promise<T>, alsoNull: readonly FsErrorKind[] = []): Promise<T | null> {
  try {
    return await fsCall(run);
  } catch (error) {
    if (error instanceof FsError && (ABSENT_KINDS.has(error.kind) || alsoNull.includes(error.kind))) return null;
    throw error;
  }
}

const syncFilesDeno: SyncFiles = {
  stat: (path) => {
    const info = syncOrNull(() => Deno.statSync(path), STAT_NULL, toFsError);
    return info ? toInfo(info, false) : null;
  },
  readText: (path) => syncOrNull(() => Deno.readTextFileSync(path), READ_NULL, toFsError),
  readLarge: (path) => fsCall<string>(() => Deno.readTextFile(path)).catch(ifMissing(null)),
  // setTimeout is clamped to 4 ms once nested; Deno 2 has setImmediate as Node does.
  yieldToLoop: () => new Promise((resolve) => (typeof setImmediate === "function" ? setImmediate(resolve) : setTimeout(resolve, 0))),
};

/**
 * Runtime.watchTree on Deno: one recursive Deno.watchFs (events in order; an event without paths — a rescan after an
 * overflow — names the root). `skip` is not applied: Deno has no way to leave a directory out.
 */
function watchTreeDeno(root: string, options: TreeWatchOptions): TreeWatch | null {
  let watcher: { close(): void; [Symbol.asyncIterator](): AsyncIterator<{ kind: string; paths: string[] }> };
  const fence = options.fenceDir;
  const outside = fence !== undefined && !fence.startsWith(`${root}/`) && !fence.startsWith(`${root}\\`);
  // One watcher's paths share one inotify descriptor on Linux (ordered); elsewhere each path may be its own stream.
  if (outside && Deno.build.os !== "linux") return null;
  try {
    watcher = Deno.watchFs(outside ? [root, fence] : root, { recursive: true });
  } catch {
    // No permission to watch, or a path that vanished: no watch (the caller falls back to hashing).
    return null;
  }
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    try {
      watcher.close();
    } catch {
      // Already closed.
    }
  };
  (async () => {
    let reason = "the watch ended";
    try {
      for await (const event of watcher) {
        if (closed) return;
        for (const path of event.paths.length ? event.paths : [root]) options.onChange(path);
      }
    } catch (error) {
      reason = error instanceof Error ? error.message : String(error);
    }
    if (closed) return;
    close();
    options.onError(reason);
  })();
  return { close };
}

// deno-lint-ignore no-explicit-any
function toInfo(info: any, isSymlink: boolean): FileInfo {
  return { isFile: info.isFile, isDirectory: info.isDirectory, isSymlink, size: info.size, mtimeMs: info.mtime?.getTime() ?? 0 };
}

/** The Deno implementation of Runtime: Deno.Command for processes, Deno's fs for files. */
export function createDenoRuntime(): Runtime {
  const os: string = Deno.build.os;
  const groups = new ProcessGroups(os === "windows" ? null : startWatchdog, killGroup);
  // A client that went away closes stderr too: a failed write must not throw; later writes are dropped.
  let stderrOpen = true;
  return {
    name: "deno",
    platform: os === "windows" ? "win32" : os,
    arch: ({ x86_64: "x64", aarch64: "arm64" } as Record<string, string>)[Deno.build.arch] ?? Deno.build.arch,
    totalMemoryBytes: denoTotalMemory(),
    cpuCount: Math.max(1, (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency ?? 1),
    execPath: Deno.execPath(),
    isStandalone: false,
    mainScript: Deno.mainModule,
    shell: denoShell(),
    spawn: (command, args, options) => spawnDeno(command, args, options, groups),
    killSpawned: () => groups.killAll(),
    spawnSelf: (mode, cwd) => spawnSelfDeno(mode, cwd, groups, killGroup),
    startProcess: (command, args, { cwd, env }) => startProcessDeno(command, args, { cwd, env: buildEnv(env), stderr: "null" }, groups, killGroup),
    selfChannel: selfChannelDeno,
    pid: Deno.pid,
    processAlive: processAliveDeno,
    processIdentity: (pid) =>
      processIdentityVia(
        {
          platform: os === "windows" ? "win32" : os,
          readText: (path) => Deno.readTextFile(path),
          spawn: (command, args, options) => spawnDeno(command, args, options, groups),
        },
        pid,
      ),
    // Its failures mapped like every other file-system call: "already exists" is the answer false, the rest FsError.
    createExclusive: (path, data) => fsCall(() => writeNewFileDeno(path, data)).then(() => true, ifExists(false)),
    daemon: denoDaemonSupport(() => ["run", ...grantedFlags(), "--no-prompt", "--no-lock", Deno.mainModule]),
    readText: (path) => fsCall(() => Deno.readTextFile(path)),
    stat: async (path) => {
      const info = await orNull(() => Deno.stat(path), ["symlink_loop"]);
      return info ? toInfo(info, false) : null;
    },
    readFiles: (paths, wanted) => readFilesInSlices(syncFilesDeno, paths, wanted),
    lstat: async (path) => {
      const info = await orNull<{ isSymlink: boolean }>(() => Deno.lstat(path), ["symlink_loop"]);
      return info ? toInfo(info, info.isSymlink) : null;
    },
    realPath: (path) => orNull(() => Deno.realPath(path)),
    watchTree: watchTreeDeno,
    readDir: (path) =>
      fsCall(async () => {
        const entries: DirEntry[] = [];
        for await (const entry of Deno.readDir(path)) {
          entries.push({ name: entry.name, isFile: entry.isFile, isDirectory: entry.isDirectory, isSymlink: entry.isSymlink });
        }
        return entries;
      }),
    writeFileAtomic: async (path, data) => {
      const slash = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
      const temp = `${path.slice(0, slash + 1)}.${crypto.randomUUID().slice(0, 12)}.tmp`;
      try {
        await Deno.writeTextFile(temp, data);
        await Deno.rename(temp, path);
      } catch (error) {
        // The temporary file may not exist: the write's own error is the one thrown.
        await Deno.remove(temp).catch(() => {});
        throw toFsError(error);
      }
    },
    appendFile: (path, data) => fsCall(() => Deno.writeTextFile(path, data, { append: true })),
    writeFileDurable: (path, data) =>
      fsCall(async () => {
        const file = await Deno.open(path, { write: true, create: true, truncate: true });
        try {
          const bytes = new TextEncoder().encode(data);
          for (let offset = 0; offset < bytes.length; ) offset += await file.write(bytes.subarray(offset));
          await file.sync();
        } finally {
          file.close();
        }
      }),
    copyMode: (from, to) =>
      fsCall(async () => {
        if (Deno.build.os === "windows") return;
        const { mode } = await Deno.stat(from);
        if (mode !== null) await Deno.chmod(to, mode & 0o7777);
      }),
    syncDir: (path) =>
      fsCall(async () => {
        if (Deno.build.os === "windows") return;
        const dir = await Deno.open(path, { read: true });
        try {
          await dir.sync();
        } finally {
          dir.close();
        }
      }),
    rename: (from, to) => fsCall(() => Deno.rename(from, to)),
    removeFile: (path) =>
      fsCall<void>(() => Deno.remove(path, { recursive: true })).catch((error: unknown) => {
        if (!(error instanceof FsError && error.kind === "not_found")) throw error;
      }),
    symlink: (target, path) => fsCall(() => Deno.symlink(target, path)),
    mkdirp: (path) => fsCall(() => Deno.mkdir(path, { recursive: true })),
    touch: (path) =>
      fsCall(async () => {
        const now = new Date();
        await Deno.utime(path, now, now);
      }),
    mkdirPrivate: (path) => fsCall(() => mkdirPrivateDeno(path)),
    makeTempDir: (prefix) => fsCall(() => Deno.makeTempDir({ prefix })),
    env: (name) => Deno.env.get(name),
    environment: () => Deno.env.toObject(),
    cwd: () => Deno.cwd(),
    sha256: (data) => createHash("sha256").update(data).digest("hex"),
    hmacSha256: (key, data) => createHmac("sha256", key).update(data).digest("hex"),
    randomHex: (bytes) => randomBytes(bytes).toString("hex"),
    rssBytes: () => Deno.memoryUsage().rss,
    writeStderr: (text) => {
      if (!stderrOpen) return;
      try {
        Deno.stderr.writeSync(new TextEncoder().encode(text));
      } catch {
        // Stderr closed (EPIPE): later notices are dropped, never thrown at a check.
        stderrOpen = false;
      }
    },
  };
}
