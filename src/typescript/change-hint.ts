// What a file-system watch saw change, handed to warm programs so a check re-asks only the questions whose answer
// may have moved (plain data: it can cross into a worker). See service/change-tracker.ts for how it is made true.

/** Changes a tree watch recorded, with what the watch cannot see. */
export interface ChangeHint {
  /** The watch's sequence number when the hint was made (after a fence: every earlier change is in `changes`). */
  seq: number;
  /** `changes` is complete for every change after this sequence number; a program last told less re-asks everything. */
  since: number;
  /** Each changed path (absolute; a directory stands for everything under it) with its sequence number. */
  changes: [string, number][];
  /** The watched tree: a path outside it is always re-asked. */
  root: string;
  /** Paths inside the tree the watch does not see (node_modules, symlinks, the state directory): always re-asked. */
  uncovered: string[];
  /** False where two spellings of a path in different case can name one file (macOS, Windows). */
  caseSensitive: boolean;
}

/**
 * Which paths a program last told `lastSeq` must ask about again: the changed ones, what is under a changed directory,
 * the directory holding a changed entry (its listing), and everything the watch cannot see. Null: ask about
 * everything (no hint, or it does not reach back to `lastSeq`).
 */
export function recheckFilter(hint: ChangeHint | null | undefined, lastSeq: number | null): ((path: string) => boolean) | null {
  if (!hint || lastSeq === null || lastSeq < hint.since || lastSeq > hint.seq) return null;
  const norm = (path: string) => {
    const slashed = path.replaceAll("\\", "/").replace(/\/+$/, "");
    return hint.caseSensitive ? slashed : slashed.toLowerCase();
  };
  const root = norm(hint.root);
  const uncovered = new Set(hint.uncovered.map(norm));
  const changed = new Set<string>();
  const listings = new Set<string>();
  for (const [path, seq] of hint.changes) {
    if (seq <= lastSeq) continue;
    const normal = norm(path);
    changed.add(normal);
    listings.add(normal.slice(0, normal.lastIndexOf("/")));
  }
  // The root itself reported: anything may have changed.
  if (changed.has(root)) return null;
  return (path) => {
    const normal = norm(path);
    if (normal !== root && !normal.startsWith(`${root}/`)) return true;
    if (listings.has(normal)) return true;
    // The path or a directory above it changed (a directory moved or deleted takes everything under it along), or
    // lies where the watch does not see.
    for (let at = normal.length; at > root.length; at = normal.lastIndexOf("/", at - 1)) {
      const prefix = normal.slice(0, at);
      if (changed.has(prefix) || uncovered.has(prefix)) return true;
    }
    return false;
  };
}
