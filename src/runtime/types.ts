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
}

/** The result of stat/lstat, reduced to what Signalint needs. */
export interface FileInfo {
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
  size: number;
  mtimeMs: number;
}

/** One directory entry. */
export interface DirEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymlink: boolean;
}

/**
 * Everything outside pure logic goes through this interface; core never touches `process` or `Deno`. File-system
 * failures are thrown as FsError (core/errors.ts) with a runtime-independent kind, so callers write one check.
 */
export interface Runtime {
  readonly name: "node" | "deno";
  readonly platform: string;
  /** Absolute path of the running executable (node, deno, or the standalone binary). */
  readonly execPath: string;
  /** True inside a standalone binary: JS engine entries can then run on the embedded runtime. */
  readonly isStandalone: boolean;
  spawn(command: string, args: readonly string[], options: SpawnOptions): Promise<SpawnResult>;
  readText(path: string): Promise<string>;
  /** stat (following links); null when the path does not exist, is not reachable, or is a symlink loop. */
  stat(path: string): Promise<FileInfo | null>;
  /** lstat (not following links); null when the path does not exist or is not reachable. */
  lstat(path: string): Promise<FileInfo | null>;
  /** Null when the path does not exist or is not reachable; a symlink loop or too long a name throws FsError. */
  realPath(path: string): Promise<string | null>;
  readDir(path: string): Promise<DirEntry[]>;
  /** Write via a temp file in the same directory and rename, so readers never see a half-written file. */
  writeFileAtomic(path: string, data: string): Promise<void>;
  appendFile(path: string, data: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  removeFile(path: string): Promise<void>;
  /** Set a file's access and modification time to now (LRU bookkeeping). */
  touch(path: string): Promise<void>;
  mkdirp(path: string): Promise<void>;
  makeTempDir(prefix: string): Promise<string>;
  env(name: string): string | undefined;
  cwd(): string;
  sha256(data: string | Uint8Array): string;
  /** Resident memory of this process, in bytes. */
  rssBytes(): number;
  writeStderr(text: string): void;
}
