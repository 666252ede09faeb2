// Many small files stat'ed and read in one pass (Runtime.readFiles), shared by the Node and Deno runtimes.
import { ABSENT_KINDS, FsError, type FsErrorKind } from "../core/errors.ts";
import type { FileInfo, FileRead } from "./types.ts";

/** How long one batch may hold the event loop before giving it back. */
const SLICE_MS = 8;
/** Files larger than this are read without holding the event loop (a generated bundle, a lockfile). */
const LARGE_BYTES = 1024 * 1024;

/**
 * What a runtime supplies: synchronous stat (null: missing or unreachable) and read (null: missing; other failures
 * thrown, as Runtime.readText's), an asynchronous read for large files, and a turn of its event loop.
 */
export interface SyncFiles {
  stat(path: string): FileInfo | null;
  readText(path: string): string | null;
  readLarge(path: string): Promise<string | null>;
  yieldToLoop(): Promise<void>;
}

/** What a stat answers null for (Runtime.stat's kinds and a symlink loop), and a read (missing only, as ifMissing). */
export const STAT_NULL: ReadonlySet<FsErrorKind> = new Set([...ABSENT_KINDS, "symlink_loop"]);
export const READ_NULL: ReadonlySet<FsErrorKind> = new Set(["not_found"]);

/** A synchronous call's failure, mapped by the runtime's `toFsError`: null for the kinds given, else thrown. */
export function syncOrNull<T>(call: () => T, nullKinds: ReadonlySet<FsErrorKind>, toFsError: (error: unknown) => unknown): T | null {
  try {
    return call();
  } catch (error) {
    const mapped = toFsError(error);
    if (mapped instanceof FsError && nullKinds.has(mapped.kind)) return null;
    throw mapped;
  }
}

/**
 * Stat each path and read the regular files `wanted` asks for. Synchronous calls in slices of a few milliseconds: one
 * thread-pool round trip per call (stat, open, read, close) made a 5,000-file lint-cache look three to four times as
 * slow, and its promises kept the garbage collector busy. Between slices other work (a host's reply, a ping) runs.
 */
export async function readFilesInSlices(
  files: SyncFiles,
  paths: readonly string[],
  wanted: (path: string, info: FileInfo) => boolean,
): Promise<(FileRead | null)[]> {
  const results: (FileRead | null)[] = [];
  let sliceStart = performance.now();
  for (const path of paths) {
    if (performance.now() - sliceStart > SLICE_MS) {
      await files.yieldToLoop();
      sliceStart = performance.now();
    }
    const info = files.stat(path);
    if (!info?.isFile) {
      results.push(null);
      continue;
    }
    if (!wanted(path, info)) {
      results.push({ info, text: null });
      continue;
    }
    // Gone between the stat and the read: missing, as if the stat had not found it.
    const text = info.size > LARGE_BYTES ? await files.readLarge(path) : files.readText(path);
    results.push(text === null ? null : { info, text });
  }
  return results;
}
