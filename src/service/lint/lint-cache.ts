import { join } from "node:path";
import type { RawIssue } from "../../core/issues.ts";
import type { Runtime } from "../../runtime/types.ts";
import { ifMissing } from "../../core/errors.ts";

/** Cache entries kept on disk at most; the least recently used are evicted. */
export const MAX_CACHE_ENTRIES = 20_000;
const MEMORY_ENTRIES = 5_000;
const SWEEP_EVERY = 250;

interface StoredEntry {
  v: 1;
  key: string;
  issues: RawIssue[];
}

/**
 * Engine results keyed by everything that can change them (engine, version, config inputs, file content), one small
 * JSON file per entry under `dir` (`<cacheDir>/lint/`, outside the project tree). Writes are atomic (temp + rename), so two servers sharing a project
 * never see a torn entry; both writing the same key write the same value. A corrupt entry is discarded with a
 * warning on stderr.
 */
export class LintCache {
  private readonly dir: string;
  private readonly memory = new Map<string, RawIssue[]>();
  private puts = 0;

  constructor(
    private readonly runtime: Runtime,
    dir: string,
    private readonly maxEntries = MAX_CACHE_ENTRIES,
  ) {
    this.dir = dir;
  }

  private pathOf(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  async get(key: string): Promise<RawIssue[] | null> {
    const hot = this.memory.get(key);
    if (hot) return hot;
    const path = this.pathOf(key);
    const text = await this.runtime.readText(path).catch(ifMissing(null));
    if (text === null) return null;
    try {
      const entry = JSON.parse(text) as StoredEntry;
      if (entry.v !== 1 || entry.key !== key || !Array.isArray(entry.issues)) throw new Error("unexpected shape");
      this.remember(key, entry.issues);
      // Best effort: the entry's age only orders eviction.
      await this.runtime.touch(path).catch(() => {});
      return entry.issues;
    } catch (error) {
      this.runtime.writeStderr(`signalint: discarding corrupt cache entry ${path}: ${(error as Error).message}\n`);
      // Best effort: a corrupt entry that cannot go is discarded again when read.
      await this.runtime.removeFile(path).catch(() => {});
      return null;
    }
  }

  async put(key: string, issues: RawIssue[]): Promise<void> {
    this.remember(key, issues);
    const path = this.pathOf(key);
    try {
      await this.runtime.mkdirp(join(this.dir, key.slice(0, 2)));
      await this.runtime.writeFileAtomic(path, JSON.stringify({ v: 1, key, issues } satisfies StoredEntry));
      if (++this.puts % SWEEP_EVERY === 0) await this.evict();
    } catch (error) {
      this.runtime.writeStderr(`signalint: could not write cache entry ${path}: ${(error as Error).message}\n`);
    }
  }

  /** Remember a result in memory only (results derived from a directory run, too many to write one by one). */
  prime(key: string, issues: RawIssue[]): void {
    this.remember(key, issues);
  }

  private remember(key: string, issues: RawIssue[]): void {
    this.memory.delete(key);
    this.memory.set(key, issues);
    if (this.memory.size > MEMORY_ENTRIES) this.memory.delete(this.memory.keys().next().value as string);
  }

  /** Keep at most maxEntries files, dropping the least recently used (oldest modification/touch time). */
  async evict(): Promise<number> {
    const entries: { path: string; mtimeMs: number }[] = [];
    for (const shard of await this.runtime.readDir(this.dir).catch(ifMissing([]))) {
      if (!shard.isDirectory) continue;
      for (const file of await this.runtime.readDir(join(this.dir, shard.name)).catch(ifMissing([]))) {
        const path = join(this.dir, shard.name, file.name);
        const info = await this.runtime.stat(path);
        if (info) entries.push({ path, mtimeMs: info.mtimeMs });
      }
    }
    if (entries.length <= this.maxEntries) return 0;
    entries.sort((a, b) => a.mtimeMs - b.mtimeMs);
    const victims = entries.slice(0, entries.length - Math.floor(this.maxEntries * 0.9));
    // Best effort: an entry that cannot go is evicted at the next sweep.
    for (const victim of victims) await this.runtime.removeFile(victim.path).catch(() => {});
    this.memory.clear();
    return victims.length;
  }
}
