import { basename, dirname, join } from "node:path";
import { ifMissing } from "../../core/errors.ts";
import { exactStamp, settledEntry, settledStamp } from "../../engines/file-stamp.ts";
import type { Runtime } from "../../runtime/types.ts";
import type { ChangeHint } from "../../typescript/change-hint.ts";
import { unwatched } from "./change-tracker.ts";

/** Answers kept for quiet checks (one per distinct request: paths, kind, engines, settings). */
const MAX_ENTRIES = 16;
/** Files outside the watch an answer may depend on, stamped at most; beyond it answers are not kept. */
const MAX_STAMPED = 20_000;
/** What each package manager rewrites on every install, beside the node_modules directory itself. */
const INSTALL_MARKERS = [".package-lock.json", ".modules.yaml", ".yarn-state.yml", ".yarn-integrity"];

/** What a check's answer can be vouched with, taken after its fence and before any engine runs. */
export interface QuietProbe {
  /** The watch's sequence number at the fence: a change recorded after it is one the answer may not have seen. */
  seq: number;
  /** Who would answer (each engine's resolved package and version). */
  identity: string;
  /** Exact stamps of what the watch cannot see: the node_modules directories, their scopes and install markers, */
  /** and every file earlier answers read there or outside the root. */
  stamps: Map<string, string | null>;
  /** When the stamps were taken (Date.now()): a file read outside the watch that no stamp covers is vouched for */
  /** only when it has not changed since (settledStamp). */
  takenAtMs: number;
  /** The directories above the root: where the walk up from a file read outside the tree stops (see store). */
  above: Set<string>;
}

interface Entry<T> {
  seq: number;
  identity: string;
  stamps: Map<string, string | null>;
  value: T;
}

/**
 * The watch sees the whole tree except node_modules, `.git`, the state directory and what a symlink points to. It
 * can vouch for an answer only when the tree has no other blind spot: no symlink or unreadable directory.
 */
function vouchable(hint: ChangeHint, stateDir: string): boolean {
  return hint.uncovered.every((path) => path === stateDir || basename(path) === "node_modules" || basename(path) === ".git");
}

/**
 * Answers a check may repeat without running anything, each kept with what proves it still true: the watch's
 * sequence number (no change recorded since, after a fence), the engines' identity, and the exact stamps of every
 * file outside the watch it depends on, taken before its engines ran (a change made while they ran shows as a
 * different stamp later, never as a stale answer). Node_modules is vouched for by the stamps of its directory, of
 * each scope directory in it and of the install markers package managers rewrite, plus every file a warm program
 * or a linter's config read there. Anything else — no watch, a symlink in the tree, too many files — keeps no
 * answer, and the check runs as before.
 */
export class QuietIndex<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** Files outside the watch that earlier answers read: stamped before the next check runs. */
  private readonly known = new Set<string>();

  constructor(
    private readonly runtime: Runtime,
    private readonly root: string,
    private readonly stateDir: string,
  ) {}

  /** The answer kept for `key` when nothing it depends on changed since; null otherwise. */
  reuse(key: string, hint: ChangeHint | null, identity: string): T | null {
    const entry = this.entries.get(key);
    if (!entry || !hint || !vouchable(hint, this.stateDir) || entry.identity !== identity) return null;
    const last = hint.changes.at(-1);
    if (hint.since > entry.seq || (last !== undefined && last[1] > entry.seq)) return null;
    for (const [path, stamp] of entry.stamps) if (exactStamp(path) !== stamp) return null;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Before the engines run: the stamps a new answer would be kept with (null: the watch cannot vouch for it). */
  async probe(hint: ChangeHint | null, identity: string): Promise<QuietProbe | null> {
    if (!hint || !vouchable(hint, this.stateDir)) return null;
    const paths = new Set(this.known);
    for (const dir of hint.uncovered) if (basename(dir) === "node_modules") for (const path of await this.installPaths(dir)) paths.add(path);
    if (paths.size > MAX_STAMPED) return null;
    const takenAtMs = Date.now();
    const above = new Set<string>();
    for (let dir = dirname(this.root); !above.has(dir); dir = dirname(dir)) above.add(dir);
    return { seq: hint.seq, identity, stamps: new Map([...paths].map((path) => [path, exactStamp(path)])), takenAtMs, above };
  }

  /** A node_modules directory, its scope directories (a package added to one changes its listing) and markers. */
  private async installPaths(dir: string): Promise<string[]> {
    const entries = await this.runtime.readDir(dir).catch(ifMissing([]));
    const scopes = entries.filter((entry) => entry.isDirectory && entry.name.startsWith("@")).map((entry) => join(dir, entry.name));
    return [dir, ...scopes, ...INSTALL_MARKERS.map((name) => join(dir, name))];
  }

  /**
   * After a check: keep its answer when it is reusable (`reads` not null) and everything it read outside the watch
   * was stamped before it ran or has not changed since (a long-lived server's first check); otherwise drop what was
   * kept for `key` (it is older than this answer). The reads are learnt, so the next check stamps them first.
   */
  store(key: string, probe: QuietProbe | null, reads: readonly string[] | null, value: T): void {
    this.entries.delete(key);
    const outside = (reads ?? []).filter((path) => unwatched(this.root, path));
    for (const path of outside) if (this.known.size < MAX_STAMPED) this.known.add(path);
    if (!probe || reads === null || outside.length > MAX_STAMPED) return;
    // A file read outside the watch that the probe did not stamp (the first check reading it) is vouched for when it
    // has not changed since the probe: its stamp now is the one it had then. A file changed meanwhile keeps nothing.
    // So is every directory on its way up, to the tree or the directories above the root (a directory renamed into
    // place, a link re-pointed at older files, as a package manager relinks, change no file's own times).
    const late = new Map<string, string | null>();
    const dirs = new Map<string, boolean>();
    const steady = (dir: string): boolean => {
      if (dir === this.root || probe.above.has(dir) || !unwatched(this.root, dir)) return true;
      const known = dirs.get(dir);
      if (known !== undefined) return known;
      const now = exactStamp(dir);
      // A directory that is not there: the missing file's own check vouched for its absence (its nearest directory).
      if (now === null) return dirname(dir) === dir || steady(dirname(dir));
      const ok = now === probe.stamps.get(dir) || settledEntry(dir, probe.takenAtMs);
      const answer = ok && (dirname(dir) === dir || steady(dirname(dir)));
      dirs.set(dir, answer);
      return answer;
    };
    for (const path of outside) {
      if (probe.stamps.has(path) || late.has(path)) continue;
      const stamp = settledStamp(path, probe.takenAtMs);
      if (stamp === undefined || !steady(dirname(path))) return;
      late.set(path, stamp);
    }
    const own = new Set(outside);
    // The install stamps and this answer's own reads; other answers' reads are not this one's inputs.
    const stamps = new Map([...[...probe.stamps].filter(([path]) => own.has(path) || !this.known.has(path)), ...late]);
    this.entries.set(key, { seq: probe.seq, identity: probe.identity, stamps, value });
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
  }
}
