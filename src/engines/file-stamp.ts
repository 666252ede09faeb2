import { statSync } from "node:fs";
import { dirname } from "node:path";

/**
 * A file whose mtime is this close to the moment it is stamped could be written again within the same timestamp tick
 * (coarse kernel clocks, 1 s on some file systems) with the same size: its stamp cannot prove it unchanged later.
 */
const RACY_MS = 1000;
let racy = 0;

/**
 * A cheap identity of a file's current state (nanosecond mtime, size, inode), or null when it does not exist. Equal
 * stamps mean the file was not touched; a different stamp means it may have changed. A file modified within the last
 * second gets a stamp that equals no other ("racy", as git calls it), so the next comparison looks at its content.
 */
export function fileStamp(path: string): string | null {
  try {
    const stats = statSync(path, { bigint: true });
    const stamp = `${stats.mtimeNs}:${stats.size}:${stats.ino}`;
    return Date.now() - Number(stats.mtimeMs) < RACY_MS ? `${stamp}:racy${++racy}` : stamp;
  } catch {
    // No such file (or unreadable): no stamp, which never equals one.
    return null;
  }
}

/** True for a stamp taken within a second of the file's last write (it proves nothing later: see fileStamp). */
export function isRacyStamp(stamp: string): boolean {
  return stamp.includes(":racy");
}

/** The stamp without racy marking: for identities that must stay equal while nothing changes (package versions). */
export function exactStamp(path: string): string | null {
  try {
    const stats = statSync(path, { bigint: true });
    return `${stats.mtimeNs}:${stats.size}:${stats.ino}`;
  } catch {
    // No such file (or unreadable): no stamp, which never equals one.
    return null;
  }
}

/**
 * The exact stamp `path` has had since before `beforeMs`, or undefined when it may have changed since. A file: its
 * status change time is older than that, by more than the racy margin (the change time moves with every write, rename
 * or metadata change and no tool sets it back, unlike mtime). A missing file (null): the nearest directory above it
 * that exists has not changed since either (creating or removing an entry changes its directory).
 */
export function settledStamp(path: string, beforeMs: number): string | null | undefined {
  const settled = (stats: { ctimeMs: bigint; mtimeMs: bigint }) => Number(stats.ctimeMs) < beforeMs - RACY_MS && Number(stats.mtimeMs) < beforeMs - RACY_MS;
  try {
    const stats = statSync(path, { bigint: true });
    return settled(stats) ? `${stats.mtimeNs}:${stats.size}:${stats.ino}` : undefined;
  } catch {
    // Not there (or unreadable): its absence is settled when its nearest existing directory is.
    for (let dir = dirname(path); ; dir = dirname(dir)) {
      const stats = statSync(dir, { bigint: true, throwIfNoEntry: false });
      if (stats) return stats.isDirectory() && settled(stats) ? null : undefined;
      if (dirname(dir) === dir) return undefined;
    }
  }
}

/** Longer than any kernel's timestamp tick (a coarse clock moves every 1–10 ms): see stillStamp. */
const TICK_MS = 100;

/**
 * The exact stamp of a directory last changed more than a timestamp tick before `nowMs`, else null: an entry made and
 * removed again later always changes it (a later tick), so an equal stamp afterwards proves no entry came and went.
 */
export function stillStamp(path: string, nowMs: number): string | null {
  try {
    const stats = statSync(path, { bigint: true });
    return Number(stats.mtimeMs) < nowMs - TICK_MS && Number(stats.ctimeMs) < nowMs - TICK_MS ? `${stats.mtimeNs}:${stats.size}:${stats.ino}` : null;
  } catch {
    // No such directory: nothing to vouch with.
    return null;
  }
}
