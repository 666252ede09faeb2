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
export function recheckFilter(hint: ChangeHint | null | undefined, lastSeq: number | null, reportedOnly = false): ((path: string) => boolean) | null {
  if (!hint || lastSeq === null || lastSeq < hint.since || lastSeq > hint.seq) return null;
  const norm = (path: string) => {
    const slashed = path.includes("\\") ? path.replaceAll("\\", "/") : path;
    const trimmed = slashed.endsWith("/") ? slashed.replace(/\/+$/, "") : slashed;
    return hint.caseSensitive ? trimmed : trimmed.toLowerCase();
  };
  const root = norm(hint.root);
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
  // Paths at or under one of these are asked again: what changed (a directory moved or deleted takes everything under
  // it along) and what the watch cannot see (unless `reportedOnly`: what the watch reported, nothing else).
  const prefixes = reportedOnly ? [...changed] : [...changed, ...hint.uncovered.map(norm)];
  const prefixSet = new Set(prefixes);
  const under = (normal: string): boolean => {
    // Few prefixes (the usual case): compare with each; many: look each directory above the path up.
    if (prefixes.length <= 32)
      return prefixes.some((prefix) => normal.startsWith(prefix) && (normal.length === prefix.length || normal[prefix.length] === "/"));
    for (let at = normal.length; at > root.length; at = normal.lastIndexOf("/", at - 1)) if (prefixSet.has(normal.slice(0, at))) return true;
    return false;
  };
  return (path) => {
    const normal = norm(path);
    if (!normal.startsWith(root) || (normal.length > root.length && normal[root.length] !== "/")) return !reportedOnly;
    return listings.has(normal) || under(normal);
  };
}

/**
 * What one consumer of hints (a program, a solution's project, a parsed config) last looked at everything through:
 * each check hands it the new hint and gets back which paths to look at again.
 */
export class HintClock {
  /** The hint sequence number its recorded answers are known fresh at (null: none, re-ask everything). */
  private seq: number | null = null;

  /** Which paths to ask about again for this check (null: all); the hint counts as seen from now on. */
  advance(hint: ChangeHint | null | undefined): ((path: string) => boolean) | null {
    return this.advanceReported(hint).recheck;
  }

  /** As `advance`, and which paths the watch itself reported changed (null: no hint; never what it cannot see). */
  advanceReported(hint: ChangeHint | null | undefined): { recheck: ((path: string) => boolean) | null; reported: ((path: string) => boolean) | null } {
    const recheck = recheckFilter(hint, this.seq);
    const reported = recheck && recheckFilter(hint, this.seq, true);
    this.seq = hint?.seq ?? null;
    return { recheck, reported };
  }
}
