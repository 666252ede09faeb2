import { lstatSync, statSync } from "node:fs";
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
 * True when `stats` (of a file, directory or link) says it has not changed since before `beforeMs`: its status change
 * time is older than that by more than the racy margin — the change time moves with every write, rename, link or
 * metadata change and no tool sets it back, unlike mtime (npm's extracted files carry 1985) — and so is its mtime. A
 * change time of 0, before the mtime or in the future (FAT, some network mounts) proves nothing.
 */
function settledTimes(stats: { ctimeMs: bigint; mtimeMs: bigint }, beforeMs: number): boolean {
  const ctime = Number(stats.ctimeMs);
  const mtime = Number(stats.mtimeMs);
  return ctime > 0 && ctime >= mtime && ctime < beforeMs - RACY_MS && mtime < beforeMs - RACY_MS;
}

/**
 * The exact stamp `path` has had since before `beforeMs` (see settledTimes; a link on the way itself too), null for a
 * file missing all along (its nearest existing directory settled), or undefined when it may have changed since.
 */
export function settledStamp(path: string, beforeMs: number): string | null | undefined {
  try {
    const link = lstatSync(path, { bigint: true, throwIfNoEntry: false });
    if (link) {
      if (!settledTimes(link, beforeMs)) return undefined;
      const stats = link.isSymbolicLink() ? statSync(path, { bigint: true }) : link;
      return settledTimes(stats, beforeMs) ? `${stats.mtimeNs}:${stats.size}:${stats.ino}` : undefined;
    }
    for (let dir = dirname(path); ; dir = dirname(dir)) {
      const stats = statSync(dir, { bigint: true, throwIfNoEntry: false });
      if (stats) return stats.isDirectory() && settledTimes(stats, beforeMs) ? null : undefined;
      if (dirname(dir) === dir) return undefined;
    }
  } catch {
    // Unreadable, a link loop, a name too long: nothing to vouch with.
    return undefined;
  }
}

/** True when the directory (or link) at `path` has not changed since before `beforeMs` (see settledTimes). */
export function settledEntry(path: string, beforeMs: number): boolean {
  try {
    const stats = lstatSync(path, { bigint: true, throwIfNoEntry: false });
    return stats !== undefined && settledTimes(stats, beforeMs);
  } catch {
    // Unreadable: nothing to vouch with.
    return false;
  }
}
