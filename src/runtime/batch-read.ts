// Many small files stat'ed and read in one pass (Runtime.readFiles), shared by the Node and Deno runtimes.
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
