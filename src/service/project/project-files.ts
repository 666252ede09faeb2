import { join } from "node:path";
import type { Runtime } from "../../runtime/types.ts";
import { ifMissing } from "../../core/errors.ts";

/** Directories never walked for cache fingerprints. */
const SKIPPED = new Set(["node_modules", ".git", ".hg", ".svn", ".signalint"]);
/** Past this many files a directory fingerprint is not worth computing; the engine just runs. */
export const MAX_WALKED_FILES = 50_000;

/**
 * Every file under `dir` that `accepts` (absolute paths), skipping VCS and node_modules directories and the state
 * directory; null when there are more than MAX_WALKED_FILES.
 */
export async function listFiles(runtime: Runtime, dir: string, options: { accepts: (path: string) => boolean; skip: string }): Promise<string[] | null> {
  const files: string[] = [];
  const queue = [dir];
  while (queue.length) {
    const current = queue.pop() as string;
    for (const entry of await runtime.readDir(current).catch(ifMissing([]))) {
      const path = join(current, entry.name);
      if (entry.isDirectory) {
        if (!SKIPPED.has(entry.name) && path !== options.skip) queue.push(path);
      } else if ((entry.isFile || entry.isSymlink) && options.accepts(path)) {
        files.push(path);
        if (files.length > MAX_WALKED_FILES) return null;
      }
    }
  }
  return files.sort();
}
