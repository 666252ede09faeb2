// Node's side of Runtime.watchTree: one fs.watch per directory on Linux (inotify; Node 20's recursive mode there
// walks node_modules too, with no way to leave it out), one recursive fs.watch on macOS and Windows.
import { type Dirent, type FSWatcher, lstatSync, readdirSync, watch } from "node:fs";
import { join, sep } from "node:path";
import type { TreeWatch, TreeWatchOptions } from "./types.ts";

/** Directories one Linux tree watch holds at most (one inotify watch each); a bigger tree is not watched. */
export const MAX_WATCHED_DIRS = 8192;

/** Why a watch could not be added, in words (errno codes mapped here, once). */
function reasonOf(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOSPC") return "the system's inotify watch limit (fs.inotify.max_user_watches) was reached";
  if (code === "EMFILE") return "too many open files";
  return `${code ?? ""} ${(error as Error).message ?? error}`.trim();
}

export function watchTreeNode(root: string, options: TreeWatchOptions): TreeWatch | null {
  if (process.platform === "linux") return watchEachDirectory(root, options);
  if (process.platform === "darwin" || process.platform === "win32") return watchRecursively(root, options);
  return null;
}

function watchRecursively(root: string, options: TreeWatchOptions): TreeWatch | null {
  // Two recursive watches are two OS streams (FSEvents, ReadDirectoryChangesW): a fence outside the tree proves nothing.
  if (options.fenceDir !== undefined && !options.fenceDir.startsWith(`${root}${sep}`)) return null;
  let closed = false;
  let watcher: FSWatcher;
  try {
    watcher = watch(root, { recursive: true, persistent: false }, (_type, name) => {
      if (!closed) options.onChange(name ? join(root, String(name)) : root);
    });
  } catch {
    // Recursive watch unsupported or refused: no watch (the caller falls back to hashing).
    return null;
  }
  const close = () => {
    closed = true;
    watcher.close();
  };
  watcher.on("error", (error) => {
    if (closed) return;
    close();
    options.onError(reasonOf(error));
  });
  return { close };
}

function watchEachDirectory(root: string, options: TreeWatchOptions): TreeWatch | null {
  const watchers = new Map<string, FSWatcher>();
  let closed = false;
  const close = () => {
    closed = true;
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
  };
  const fail = (reason: string) => {
    if (closed) return;
    close();
    options.onError(reason);
  };
  /** Watch a directory and every directory below it (false once the watch failed as a whole). */
  const add = (dir: string): boolean => {
    if (closed) return false;
    if (watchers.has(dir) || options.skip(dir)) return true;
    if (watchers.size >= MAX_WATCHED_DIRS) {
      fail(`more than ${MAX_WATCHED_DIRS} directories to watch`);
      return false;
    }
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: false }, (_type, name) => changed(dir, name));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Gone (or replaced by a file) meanwhile: its parent's watch reports that.
      if (code === "ENOENT" || code === "ENOTDIR") return true;
      fail(reasonOf(error));
      return false;
    }
    watcher.on("error", (error) => fail(reasonOf(error)));
    watchers.set(dir, watcher);
    let entries: Dirent[] = [];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      // Removed meanwhile: reported by its parent.
    }
    for (const entry of entries) if (entry.isDirectory() && !add(join(dir, entry.name))) return false;
    return true;
  };
  /** One event: a directory moved away or deleted loses its watches (inotify follows the inode), one that appears gets them. */
  const changed = (dir: string, name: string | Buffer | null) => {
    if (closed) return;
    const path = name ? join(dir, String(name)) : dir;
    if (watchers.has(path)) {
      for (const [watched, watcher] of watchers) {
        if (watched !== path && !watched.startsWith(`${path}${sep}`)) continue;
        watcher.close();
        watchers.delete(watched);
      }
    }
    let isDirectory = false;
    try {
      isDirectory = lstatSync(path).isDirectory();
    } catch {
      // Deleted or moved away.
    }
    // Watched before the change is reported, so nothing written inside it afterwards goes unseen.
    if (isDirectory && !add(path)) return;
    if (!watchers.has(root)) return fail(`${root} is gone`);
    options.onChange(path);
  };
  if (!add(root)) return null;
  // The fence directory, outside the tree: every watch of this process shares one inotify descriptor, whose events
  // arrive in the order they happened, so its marker is ordered with the tree's changes.
  const fence = options.fenceDir;
  if (fence !== undefined && !watchers.has(fence)) {
    try {
      const watcher = watch(fence, { persistent: false }, (_type, name) => {
        if (!closed) options.onChange(name ? join(fence, String(name)) : fence);
      });
      watcher.on("error", (error) => fail(reasonOf(error)));
      watchers.set(fence, watcher);
    } catch {
      // The fence directory cannot be watched: the whole watch stops (the caller falls back to hashing).
      close();
      return null;
    }
  }
  return { close };
}
