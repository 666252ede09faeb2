import type { Runtime } from "../../runtime/types.ts";
import type { ChangeHint } from "../../typescript/change-hint.ts";
import { unwatched } from "./change-tracker.ts";

/** Files outside the watched tree remembered at most (see external). */
const MAX_EXTERNAL = 10_000;

interface Entry {
  size: number;
  mtimeMs: number;
  hash: string;
}

/** Content hashes of files, re-read only when size or modification time changed. */
export class ContentHasher {
  private readonly entries = new Map<string, Entry>();
  /** The change-hint sequence number the entries were last reconciled with (see forgetChanged). */
  private hintSeq: number | null = null;
  /**
   * Bumped whenever forgetChanged drops entries: a hash read before the drop is not remembered after it (the file may
   * have been rewritten since, keeping its size and modification time; the next call reads it again).
   */
  private epoch = 0;
  /** Files hashed that the file watch cannot see (outside the root, in node_modules or .git); null past MAX_EXTERNAL. */
  private externalSeen: Set<string> | null = new Set();

  constructor(
    private readonly runtime: Runtime,
    private readonly maxEntries = 50_000,
    /** The watched tree (null: no record of files outside it is kept). */
    private readonly root: string | null = null,
  ) {}

  /**
   * Every file hashed so far that the watch cannot see (a lint config extending one outside the root): a quiet check
   * stamps them. Null when there were too many to keep (then nothing is vouched for).
   */
  external(): readonly string[] | null {
    return this.externalSeen && [...this.externalSeen];
  }

  private noteExternal(path: string): void {
    if (this.root === null || !this.externalSeen || !unwatched(this.root, path)) return;
    this.externalSeen.add(path);
    if (this.externalSeen.size > MAX_EXTERNAL) this.externalSeen = null;
  }

  /**
   * Drop what the file watch saw change since the last call (with everything under a changed directory): a rewrite
   * that keeps size and modification time is otherwise taken for the same content. A hint that does not reach back
   * to the last one drops everything once; no hint (no watch) keeps the size-and-time rule alone.
   */
  forgetChanged(hint: ChangeHint | null): void {
    const last = this.hintSeq;
    this.hintSeq = hint?.seq ?? null;
    if (!hint) return;
    this.epoch++;
    if (last === null || last < hint.since) return this.entries.clear();
    const changed = hint.changes.filter(([, seq]) => seq > last).map(([path]) => path);
    if (changed.length > 256) return this.entries.clear();
    for (const path of changed) {
      this.entries.delete(path);
      const below = path.endsWith("/") || path.endsWith("\\") ? path : `${path}${path.includes("\\") ? "\\" : "/"}`;
      for (const key of this.entries.keys()) if (key.startsWith(below)) this.entries.delete(key);
    }
  }

  /**
   * sha256 of each file's content (null: it does not exist or is not a regular file), read in one batch
   * (Runtime.readFiles): a check's thousands of files without a thread-pool round trip per call. A file whose size
   * and modification time are those last hashed is not read again.
   */
  async hashMany(paths: readonly string[]): Promise<(string | null)[]> {
    for (const path of paths) this.noteExternal(path);
    const epoch = this.epoch;
    // The entry each decision to skip a read was made on: another call may replace it while this one yields.
    const reused = new Map<string, string>();
    const reads = await this.runtime.readFiles(paths, (path, info) => {
      const known = this.entries.get(path);
      if (!known || known.size !== info.size || known.mtimeMs !== info.mtimeMs) return true;
      reused.set(path, known.hash);
      return false;
    });
    return paths.map((path, index) => {
      const read = reads[index];
      if (!read) {
        this.entries.delete(path);
        return null;
      }
      if (read.text === null) return reused.get(path) ?? null;
      const hash = this.runtime.sha256(read.text);
      if (this.epoch === epoch) this.remember(path, { size: read.info.size, mtimeMs: read.info.mtimeMs, hash });
      return hash;
    });
  }

  private remember(path: string, entry: Entry): void {
    if (!this.entries.has(path) && this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(path, entry);
  }
}
