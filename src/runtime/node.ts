import { createHash, createHmac, randomBytes } from "node:crypto";
import { spawn as spawnChild } from "node:child_process";
import { promises as fs, readFile as readFileCallback, readFileSync, statSync } from "node:fs";
import { availableParallelism, tmpdir, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { x } from "tinyexec";
import { ProcessGroups, WATCHDOG_SCRIPT, type WatchdogPipe } from "./process-groups.ts";
import { processIdentityVia } from "./process-identity.ts";
import { nodeDaemonSupport, processAliveNode, writeNewFileNode } from "./daemon-node.ts";
import { READ_NULL, readFilesInSlices, STAT_NULL, syncOrNull, type SyncFiles } from "./batch-read.ts";
import { selfChannelNode, spawnSelfNode, startProcessNode } from "./self-node.ts";
import { watchTreeNode } from "./node-watch.ts";
import { mkdirPrivateNode } from "./private-dir-node.ts";
import { nodeShell } from "./shell-node.ts";
import { ABSENT_KINDS, FsError, ifExists, ifMissing, type FsErrorKind } from "../core/errors.ts";
import { CANCELLED_SPAWN, type DirEntry, type FileInfo, type Runtime, type SpawnOptions, type SpawnResult } from "./types.ts";

/** Grace period after the child exits for its pipes to close before stragglers are killed. */
const PIPE_GRACE_MS = 2000;

/** Kill a whole process tree: the process group on POSIX, taskkill /T on Windows. */
function killTree(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    if (process.platform === "win32") {
      spawnChild("taskkill", ["/pid", String(pid), "/T", "/F"], { stdio: "ignore", windowsHide: true });
    } else {
      process.kill(-pid, "SIGKILL");
    }
  } catch {
    // Already gone.
  }
}

/** Start the watchdog (see process-groups.ts) in its own session, holding none of this process's stdio. */
function startWatchdog(): WatchdogPipe | null {
  let alive = true;
  const child = spawnChild("/bin/sh", ["-c", WATCHDOG_SCRIPT], { stdio: ["pipe", "ignore", "ignore"], detached: true });
  const dead = () => {
    alive = false;
  };
  child.on("error", dead);
  child.on("exit", dead);
  child.stdin?.on("error", dead);
  if (child.pid === undefined || !child.stdin) return null;
  const stdin = child.stdin;
  // Neither keeps a finished CLI check alive; the server is kept alive by its own stdin.
  child.unref();
  (stdin as unknown as { unref?: () => void }).unref?.();
  return {
    write: (line) => {
      if (alive) stdin.write(`${line}\n`);
      return alive;
    },
  };
}

function buildEnv(extra: SpawnOptions["env"]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const [key, value] of Object.entries(extra ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

async function spawnNode(command: string, args: readonly string[], options: SpawnOptions, groups: ProcessGroups): Promise<SpawnResult> {
  if (options.signal?.aborted) return CANCELLED_SPAWN;
  const started = performance.now();
  let timedOut = false;
  let outputExceeded = false;
  let bytes = 0;
  const proc = x(command, args, {
    throwOnError: false,
    nodePath: false,
    // buildEnv starts from this process's environment: tinyexec must not merge it back over a variable removed there.
    inheritEnv: false,
    nodeOptions: {
      cwd: options.cwd,
      env: buildEnv(options.env),
      // Own process group, so a timeout can kill the engine and everything it started.
      detached: process.platform !== "win32",
      stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      windowsHide: true,
    },
  });
  const child = proc.process;
  // An engine that exits before reading all of it closes the pipe: its exit code says what happened, not EPIPE.
  child?.stdin?.on("error", () => {});
  if (options.input !== undefined) child?.stdin?.end(options.input);
  const pid = child?.pid;
  // Registered with the watchdog until the run is over, so the group dies with this process however it ends.
  const release = pid === undefined ? () => {} : groups.track(pid, options.signal);
  const count = (chunk: Buffer): void => {
    bytes += chunk.length;
    if (bytes > options.maxOutputBytes && !outputExceeded) {
      outputExceeded = true;
      killTree(pid);
    }
  };
  child?.stdout?.on("data", count);
  child?.stderr?.on("data", count);
  const timer = setTimeout(() => {
    timedOut = true;
    killTree(pid);
  }, options.timeoutMs);
  let graceTimer: NodeJS.Timeout | undefined;
  child?.on("exit", () => {
    graceTimer = setTimeout(() => killTree(pid), PIPE_GRACE_MS);
  });
  let spawnError: string | null = null;
  child?.on("error", (error) => {
    spawnError = error.message;
  });
  const output = await proc.then(
    (value) => value,
    (error: unknown) => {
      spawnError ??= error instanceof Error ? error.message : String(error);
      return { stdout: "", stderr: "", exitCode: undefined };
    },
  );
  clearTimeout(timer);
  if (graceTimer) clearTimeout(graceTimer);
  // A process that exited cleanly may still have left children in its group; an engine run leaves nothing behind.
  if (timedOut || outputExceeded) killTree(pid);
  release();
  return {
    // A process that never started has no exit code (Node reports the negative errno there).
    exitCode: spawnError ? null : (child?.exitCode ?? output.exitCode ?? null),
    signal: child?.signalCode ?? null,
    stdout: output.stdout,
    stderr: output.stderr,
    timedOut,
    outputExceeded,
    spawnError,
    durationMs: Math.round(performance.now() - started),
  };
}

function toInfo(stats: import("node:fs").Stats, isSymlink: boolean): FileInfo {
  return { isFile: stats.isFile(), isDirectory: stats.isDirectory(), isSymlink, size: stats.size, mtimeMs: stats.mtimeMs };
}

/** Node's errno codes, mapped once into the runtime-independent taxonomy (core/errors.ts). */
const FS_KINDS: Record<string, FsErrorKind> = {
  ENOENT: "not_found",
  ENOTDIR: "not_a_directory",
  ELOOP: "symlink_loop",
  EACCES: "permission_denied",
  EPERM: "permission_denied",
  ENAMETOOLONG: "name_too_long",
  EEXIST: "already_exists",
};

function toFsError(error: unknown): unknown {
  if (error instanceof FsError || !(error instanceof Error)) return error;
  return new FsError(FS_KINDS[(error as NodeJS.ErrnoException).code ?? ""] ?? "other", error.message, { cause: error });
}

/** Run a file-system call, its failure reported as an FsError. */
async function fsCall<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    throw toFsError(error);
  }
}

/**
 * Null when the path is missing or not reachable by this user (a PATH entry under another user's home): either way,
 * not usable. `alsoNull` adds kinds the caller treats the same (stat of a symlink loop).
 */
async function orNull<T>(promise: Promise<T>, alsoNull: readonly FsErrorKind[] = []): Promise<T | null> {
  try {
    return await fsCall(promise);
  } catch (error) {
    if (error instanceof FsError && (ABSENT_KINDS.has(error.kind) || alsoNull.includes(error.kind))) return null;
    throw error;
  }
}

const syncFilesNode: SyncFiles = {
  stat: (path) => {
    const stats = syncOrNull(() => statSync(path, { throwIfNoEntry: false }), STAT_NULL, toFsError);
    return stats ? toInfo(stats, false) : null;
  },
  readText: (path) => syncOrNull(() => readFileSync(path, "utf8"), READ_NULL, toFsError),
  readLarge: (path) => fsCall(readTextNode(path)).catch(ifMissing(null)),
  yieldToLoop: () => new Promise((resolve) => setImmediate(resolve)),
};

/** True inside a single executable application (Node SEA, or a pkg-built binary). */
export function isStandaloneBinary(): boolean {
  if ((process as { pkg?: unknown }).pkg) return true;
  try {
    const sea = process.getBuiltinModule?.("node:sea") as { isSea?: () => boolean } | undefined;
    return sea?.isSea?.() ?? false;
  } catch {
    // No node:sea (older Node): not a standalone binary.
    return false;
  }
}

/**
 * A file's text through the callback API: fs.promises.readFile opens a FileHandle and stats, reads and closes it in
 * separate round trips; reading the 1,001 files of a check's lint cache took three times as long that way (Node 20).
 */
function readTextNode(path: string): Promise<string> {
  return new Promise((resolve, reject) => readFileCallback(path, "utf8", (error, text) => (error ? reject(error) : resolve(text))));
}

/**
 * The Node.js implementation of Runtime. `selfScript` is the script spawnSelf re-runs (default: this process's main
 * script, the bundle; tests that embed the service pass the bundle's path).
 */
/**
 * V8's default stack (~1 MB) is too small for TypeScript's builder on very deep import chains (a 5,000-module chain
 * overflows it in `handleDtsMayChangeOfFileAndExportsOfFile`). Warm hosts started through node get ~3.8 MB, within
 * the 8 MB main-thread stack of Linux and macOS; a host that still fails is replaced and tsc's command line answers.
 */
const HOST_STACK = process.platform === "win32" ? [] : ["--stack-size=3800"];

export function createNodeRuntime(options: { selfScript?: string } = {}): Runtime {
  const groups = new ProcessGroups(process.platform === "win32" ? null : startWatchdog, (pgid) => killTree(pgid));
  // A client that went away closes stderr too: a failed write must neither throw nor become an uncaught 'error'
  // event (reporting that one on stderr again was a busy loop). Later writes are dropped.
  let stderrOpen = true;
  process.stderr.on("error", () => {
    stderrOpen = false;
  });
  const isStandalone = isStandaloneBinary();
  return {
    name: "node",
    platform: process.platform,
    arch: process.arch,
    totalMemoryBytes: totalmem(),
    cpuCount: Math.max(1, availableParallelism()),
    execPath: process.execPath,
    isStandalone,
    mainScript: isStandalone || !process.argv[1] ? null : resolve(process.argv[1]),
    shell: nodeShell(),
    spawn: (command, args, options) => spawnNode(command, args, options, groups),
    killSpawned: () => groups.killAll(),
    spawnSelf: (mode, cwd) =>
      spawnSelfNode(isStandalone ? [mode] : [...HOST_STACK, options.selfScript ?? (process.argv[1] as string), mode], cwd, groups, killTree),
    startProcess: (command, args, { cwd, env }) => startProcessNode(command, args, { cwd, env: buildEnv(env), stderr: "ignore" }, groups, killTree),
    selfChannel: selfChannelNode,
    pid: process.pid,
    processAlive: processAliveNode,
    processIdentity: (pid) =>
      processIdentityVia(
        { platform: process.platform, readText: readTextNode, spawn: (command, args, options) => spawnNode(command, args, options, groups) },
        pid,
      ),
    // Its failures mapped like every other file-system call: "already exists" is the answer false, the rest FsError.
    createExclusive: (path, data) => fsCall(writeNewFileNode(path, data)).then(() => true, ifExists(false)),
    daemon: nodeDaemonSupport(isStandalone ? [] : [options.selfScript ?? (process.argv[1] as string)]),
    readText: (path) => fsCall(readTextNode(path)),
    stat: async (path) => {
      const stats = await orNull(fs.stat(path), ["symlink_loop"]);
      return stats ? toInfo(stats, false) : null;
    },
    readFiles: (paths, wanted) => readFilesInSlices(syncFilesNode, paths, wanted),
    lstat: async (path) => {
      const stats = await orNull(fs.lstat(path), ["symlink_loop"]);
      return stats ? toInfo(stats, stats.isSymbolicLink()) : null;
    },
    realPath: (path) => orNull(fs.realpath(path)),
    watchTree: watchTreeNode,
    readDir: async (path): Promise<DirEntry[]> => {
      const entries = await fsCall(fs.readdir(path, { withFileTypes: true }));
      return entries.map((entry) => ({
        name: entry.name,
        isFile: entry.isFile(),
        isDirectory: entry.isDirectory(),
        isSymlink: entry.isSymbolicLink(),
      }));
    },
    writeFileAtomic: async (path, data) => {
      const temp = join(dirname(path), `.${randomBytes(6).toString("hex")}.tmp`);
      try {
        await fs.writeFile(temp, data);
        await fs.rename(temp, path);
      } catch (error) {
        await fs.rm(temp, { force: true });
        throw toFsError(error);
      }
    },
    appendFile: (path, data) => fsCall(fs.appendFile(path, data)),
    writeFileDurable: (path, data) =>
      fsCall(
        (async () => {
          const handle = await fs.open(path, "w");
          try {
            await handle.writeFile(data);
            await handle.sync();
          } finally {
            await handle.close();
          }
        })(),
      ),
    copyMode: async (from, to) => {
      if (process.platform === "win32") return;
      await fsCall(fs.chmod(to, (await fsCall(fs.stat(from))).mode & 0o7777));
    },
    syncDir: async (path) => {
      // Windows cannot open a directory for fsync; rename durability there is the filesystem's.
      if (process.platform === "win32") return;
      const handle = await fsCall(fs.open(path, "r"));
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
    },
    rename: (from, to) => fsCall(fs.rename(from, to)),
    removeFile: (path) => fsCall(fs.rm(path, { force: true, recursive: true })),
    symlink: (target, path) => fsCall(fs.symlink(target, path)),
    touch: async (path) => {
      const now = new Date();
      await fsCall(fs.utimes(path, now, now));
    },
    mkdirp: async (path) => {
      await fsCall(fs.mkdir(path, { recursive: true }));
    },
    mkdirPrivate: (path) => fsCall(mkdirPrivateNode(path)),
    makeTempDir: (prefix) => fsCall(fs.mkdtemp(join(tmpdir(), prefix))),
    env: (name) => process.env[name],
    environment: () => Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => typeof entry[1] === "string")),
    cwd: () => process.cwd(),
    sha256: (data) => createHash("sha256").update(data).digest("hex"),
    hmacSha256: (key, data) => createHmac("sha256", key).update(data).digest("hex"),
    randomHex: (bytes) => randomBytes(bytes).toString("hex"),
    rssBytes: () => process.memoryUsage.rss(),
    writeStderr: (text) => {
      if (!stderrOpen) return;
      try {
        process.stderr.write(text);
      } catch {
        // Stderr closed (EPIPE): later notices are dropped, never thrown at a check.
        stderrOpen = false;
      }
    },
  };
}
