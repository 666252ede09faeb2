/** What a finished (or killed) child process left behind. Spawning never throws for a non-zero exit. */
export interface SpawnResult {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  outputExceeded: boolean;
  /** Set when the process could not be started at all (ENOENT, EACCES, …). */
  spawnError: string | null;
  durationMs: number;
}

/** Options for one child process run. */
export interface SpawnOptions {
  cwd: string;
  /** Variables added to (or, with value undefined, removed from) the inherited environment. */
  env?: Record<string, string | undefined>;
  timeoutMs: number;
  /** Combined stdout+stderr byte budget; exceeding it kills the process tree. */
  maxOutputBytes: number;
  /** Aborting kills the process tree; a run asked for after the abort is not started (spawnError "cancelled"). */
  signal?: AbortSignal;
  /** Text written to its stdin, which is then closed (absent: stdin is empty). */
  input?: string;
}

/**
 * A long-lived child process running Signalint itself in another mode (see Runtime.spawnSelf), exchanging frames
 * (core/framing.ts) over its stdin and stdout. It runs in its own process group, registered with the watchdog.
 */
export interface SelfProcess {
  readonly pid: number | undefined;
  /** Write bytes (a frame: core/framing.ts) to its stdin; false once it is gone. */
  send(bytes: Uint8Array): boolean;
  /** Called with each chunk of bytes it writes to stdout, as they arrive (frames may be split or joined). */
  onData(listener: (chunk: Uint8Array) => void): void;
  /** Resolves once it has exited, however (killed, crashed, stdin closed). */
  readonly exited: Promise<void>;
  /** Kill its whole process group (it and anything it started). */
  kill(): void;
  /** Whether it keeps this process alive: held while it works for a caller, released while idle. */
  hold(held: boolean): void;
}

/** The child's end of a SelfProcess: bytes read from stdin, and a writer of bytes to stdout. */
export interface SelfChannel {
  /** Start reading: `onData` per chunk of stdin, `onEnd` once stdin is closed (the parent is gone). */
  listen(onData: (chunk: Uint8Array) => void, onEnd: () => void): void;
  /**
   * Write bytes (a frame); resolves once they are all handed to the OS (the parent can read them), so that work done
   * next without yielding cannot hold part of them back.
   */
  send(bytes: Uint8Array): Promise<void>;
}

/** The result of stat/lstat, reduced to what Signalint needs. */
export interface FileInfo {
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
  size: number;
  mtimeMs: number;
}

/** A file stat'ed by Runtime.readFiles, with its text when it was asked for. */
export interface FileRead {
  info: FileInfo;
  text: string | null;
}

/** One directory entry. */
export interface DirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
}

/** What a tree watch is told to do; see Runtime.watchTree. */
export interface TreeWatchOptions {
  /** Directories not to watch (and not to descend into): their changes are not reported. */
  skip(dir: string): boolean;
  /**
   * A path (absolute) was created, changed, deleted or renamed — for a directory, anything under it may have. Called
   * in the order the operating system reported the events; a directory that appears is watched before this returns.
   */
  onChange(path: string): void;
  /** The watch broke (watch limit reached, root removed, …): no more events come; the watch is closed. */
  onError(reason: string): void;
  /**
   * A directory outside the tree (the private state directory's fence), watched in the same ordered stream of events
   * as the tree, its changes reported through onChange too: a marker written there and seen arriving proves every
   * earlier change in the tree was reported. Where a runtime cannot order the two (separate OS streams: Node's
   * recursive watches on macOS and Windows, Deno outside Linux), watchTree returns null.
   */
  fenceDir?: string;
}

/** A live tree watch. */
export interface TreeWatch {
  close(): void;
}

/**
 * The process as its command line sees it: arguments, terminals, stdin/stdout and how it ends. Mapped once per
 * runtime (shell-node.ts, shell-deno.ts) so the entry and the CLI never ask which runtime they are on.
 */
export interface ProcessShell {
  /** The command-line arguments after the script (or after the standalone binary). */
  readonly args: readonly string[];
  readonly stdinIsTerminal: boolean;
  readonly stderrIsTerminal: boolean;
  /**
   * An environment variable, for what runs before a Runtime exists (the stdio front's settings); Deno without
   * --allow-env throws (NotCapable).
   */
  env(name: string): string | undefined;
  /** The working directory. */
  cwd(): string;
  /** The whole of stdin as UTF-8. */
  readStdin(): Promise<string>;
  writeStdout(text: string): void;
  /** End the process now (a server whose client is gone must not be kept alive by anything pending). */
  exit(code: number): void;
  /** End with this code once pending output is written (a CLI verb that finished). */
  finish(code: number): void;
  /** Report an error nobody awaited (a background task's) instead of dying from it: a long-lived server. */
  onStrayError(report: (error: unknown) => void): void;
  /**
   * Keep compiled code between runs in `dir` where the runtime can (Node 22+'s module compile cache; a no-op
   * elsewhere); `flushCompileCache` writes what was compiled so far (a process that is killed never writes it itself).
   */
  enableCompileCache(dir: string): void;
  flushCompileCache(): void;
  /** Run `listener` once when the process is asked to terminate (SIGTERM where the platform has it). */
  onTerminate(listener: () => void): void;
}

/**
 * Everything outside pure logic goes through this interface; core never touches `process` or `Deno`. File-system
 * failures are thrown as FsError (core/errors.ts) with a runtime-independent kind, so callers write one check.
 */
export interface Runtime {
  readonly name: "node" | "deno";
  readonly platform: string;
  /** CPU architecture in Node's names (x64, arm64), as npm platform packages are named. */
  readonly arch: string;
  /** The machine's total memory in bytes (null when the runtime cannot tell): the default warm memory bound. */
  readonly totalMemoryBytes: number | null;
  /** How many CPUs this process may use (at least 1): bounds how many engine processes of one kind run at once. */
  readonly cpuCount: number;
  /** Absolute path of the running executable (node, deno, or the standalone binary). */
  readonly execPath: string;
  /** True inside a standalone binary: JS engine entries can then run on the embedded runtime. */
  readonly isStandalone: boolean;
  /** The script this process runs: the bundle's absolute path (node), Deno.mainModule (a file: or https: URL); null in a standalone binary. */
  readonly mainScript: string | null;
  /** Arguments, terminals, stdin/stdout and exit of this process. */
  readonly shell: ProcessShell;
  /**
   * Run a process in its own process group (POSIX). Until the run is over the group is registered with a watchdog
   * process that kills it if this process dies without doing so (kill -9 included; see process-groups.ts).
   */
  spawn(command: string, args: readonly string[], options: SpawnOptions): Promise<SpawnResult>;
  /** Kill every process tree `spawn` started that is still running (server shutdown). */
  killSpawned(): void;
  /**
   * Start Signalint itself (the bundle on this runtime, or the standalone binary) as a long-lived child with a hidden
   * mode argument; main.ts hands that mode a `selfChannel()`. Same permissions, working directory `cwd`.
   */
  spawnSelf(mode: string, cwd: string): SelfProcess;
  /**
   * Start `command` as a long-lived child exchanging frames over stdin/stdout (a warm engine host: lint/eslint-hosts.ts),
   * in its own process group registered with the watchdog; `env` as in SpawnOptions (a caller's runtime adds its
   * environment). Its stderr is dropped.
   */
  startProcess(command: string, args: readonly string[], options: { cwd: string; env?: Record<string, string | undefined> }): SelfProcess;
  /** This process's end of the channel, when it was started by spawnSelf. */
  selfChannel(): SelfChannel;
  readText(path: string): Promise<string>;
  /** stat (following links); null when the path does not exist, is not reachable, or is a symlink loop. */
  stat(path: string): Promise<FileInfo | null>;
  /**
   * stat many files and read the regular ones `wanted` asks for (text null for the rest), faster than a call each;
   * null for a path that does not exist, is not reachable or is not a regular file. Other read failures throw.
   */
  readFiles(paths: readonly string[], wanted: (path: string, info: FileInfo) => boolean): Promise<(FileRead | null)[]>;
  /** lstat (not following links); null when the path does not exist or is not reachable. */
  lstat(path: string): Promise<FileInfo | null>;
  /** Null when the path does not exist or is not reachable; a symlink loop or too long a name throws FsError. */
  realPath(path: string): Promise<string | null>;
  readDir(path: string): Promise<DirEntry[]>;
  /**
   * Watch a directory tree for changes (Node `fs.watch`, recursive where the platform has it, one watch per
   * directory on Linux; `Deno.watchFs`). Null when this runtime or platform cannot, or the watch could not start.
   * Events of one watch arrive in the order they happened, so a file written inside the tree and seen arriving
   * proves every earlier change in it was reported.
   */
  watchTree(root: string, options: TreeWatchOptions): TreeWatch | null;
  /** Write via a temp file in the same directory and rename, so readers never see a half-written file. */
  writeFileAtomic(path: string, data: string): Promise<void>;
  appendFile(path: string, data: string): Promise<void>;
  /** Create or truncate a file, write it and flush it to disk (fsync) before resolving; no rename. */
  writeFileDurable(path: string, data: string): Promise<void>;
  /** Flush a directory's entries (after renames) to disk where the platform allows; a no-op where it does not. */
  syncDir(path: string): Promise<void>;
  /** Give `to` the permission bits of `from` (a no-op where the platform has none). */
  copyMode(from: string, to: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  removeFile(path: string): Promise<void>;
  /** A symbolic link at `path` to `target` (absolute); throws FsError where links cannot be made (Windows without the right). */
  symlink(target: string, path: string): Promise<void>;
  /** Set a file's access and modification time to now (LRU bookkeeping). */
  touch(path: string): Promise<void>;
  mkdirp(path: string): Promise<void>;
  /**
   * Create a directory (and its missing parents) that only this user may enter (0700), or make sure an existing one
   * is: a real directory, not a symlink, owned by this user, closed to group and others (tightened to 0700 when it is
   * this user's). Throws FsError (kind "not_private") when it is not and cannot be made so. A no-op check on Windows,
   * where the per-user profile directory already is private.
   */
  mkdirPrivate(path: string): Promise<void>;
  makeTempDir(prefix: string): Promise<string>;
  env(name: string): string | undefined;
  /** This process's whole environment (a copy): what a daemon client sends, so its checks run in it. */
  environment(): Record<string, string>;
  cwd(): string;
  sha256(data: string | Uint8Array): string;
  /** HMAC-SHA-256 of `data` under `key`, as hex. */
  hmacSha256(key: string, data: string): string;
  /** `bytes` random bytes from the OS's secure source, as hex. */
  randomHex(bytes: number): string;
  /** Resident memory of this process, in bytes. */
  rssBytes(): number;
  writeStderr(text: string): void;
  /** Whether a process with this pid exists (and may be signalled by this user). */
  processAlive(pid: number): boolean;
  /**
   * What the OS says a process is: its start time (as the OS reports it, compared only for equality) and command
   * line. Null when no such process exists or the OS cannot tell (Windows; a /proc or `ps` that cannot be read): a
   * caller then cannot verify it and never signals it. Together they tell a pid's original from a reused pid.
   */
  processIdentity(pid: number): Promise<ProcessIdentity | null>;
  /** This process's id. */
  readonly pid: number;
  /** Create `path` with `data` only if nothing exists there (mode 0600); false when something does. */
  createExclusive(path: string, data: string): Promise<boolean>;
  /** Local sockets and detached processes for the per-project daemon; null where this runtime has none. */
  readonly daemon: DaemonSupport | null;
}

/** A process as the OS identifies it (Runtime.processIdentity). */
export interface ProcessIdentity {
  startTime: string;
  command: string;
}

/** One end of a local connection (Unix domain socket, Windows named pipe): bytes in, bytes out. */
export interface LocalConnection {
  write(data: Uint8Array): void;
  /** Called with each chunk as it arrives. */
  onData(listener: (chunk: Uint8Array) => void): void;
  /** Called once when the connection is closed, by either end or by an error. */
  onClose(listener: () => void): void;
  close(): void;
}

/** A listening local socket. */
export interface LocalServer {
  close(): Promise<void>;
}

/** What the per-project daemon needs of the platform (src/daemon/); null on a runtime without local sockets. */
export interface DaemonSupport {
  /** Listen on a Unix domain socket (mode 0600) or named pipe; throws when it cannot be bound. */
  listen(path: string, onConnection: (connection: LocalConnection) => void): Promise<LocalServer>;
  /** Connect to a listening socket; rejects when nothing listens there. */
  connect(path: string): Promise<LocalConnection>;
  /**
   * Start Signalint in `mode`, detached (own session, outliving this process), stdin closed and stderr appended to
   * `logFile`; resolves with its pid and the first line it writes to stdout (null when it exited before writing).
   */
  startDetached(mode: string, options: { cwd: string; logFile: string; env?: Record<string, string> }): Promise<{ pid: number; line: string | null }>;
  kill(pid: number, signal: "SIGTERM" | "SIGKILL"): void;
  /**
   * The socket path for a key: in a directory only this user can enter (created 0700; refused when another user owns
   * it or others may enter it), or a user-named pipe on Windows.
   */
  socketPath(key: string): Promise<string>;
}

/** The result of a spawn asked for after its abort signal fired: nothing was started. */
export const CANCELLED_SPAWN: SpawnResult = {
  exitCode: null,
  signal: null,
  stdout: "",
  stderr: "",
  timedOut: false,
  outputExceeded: false,
  spawnError: "cancelled",
  durationMs: 0,
};
