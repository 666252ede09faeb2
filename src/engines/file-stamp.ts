import { statSync } from "node:fs";

/**
 * A cheap identity of a file's current state (nanosecond mtime, size, inode), or null when it does not exist. Equal
 * stamps mean the file was not touched; a different stamp means it may have changed.
 */
export function fileStamp(path: string): string | null {
  try {
    const stats = statSync(path, { bigint: true });
    return `${stats.mtimeNs}:${stats.size}:${stats.ino}`;
  } catch {
    return null;
  }
}
