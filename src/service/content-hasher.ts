import type { Runtime } from "../runtime/types.ts";

interface Entry {
  size: number;
  mtimeMs: number;
  hash: string;
}

/** Content hashes of files, re-read only when size or modification time changed. */
export class ContentHasher {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly runtime: Runtime,
    private readonly maxEntries = 50_000,
  ) {}

  /** sha256 of the file's content, or null when it does not exist. */
  async hash(path: string): Promise<string | null> {
    const info = await this.runtime.stat(path);
    if (!info?.isFile) {
      this.entries.delete(path);
      return null;
    }
    const known = this.entries.get(path);
    if (known && known.size === info.size && known.mtimeMs === info.mtimeMs) return known.hash;
    const text = await this.runtime.readText(path).catch(() => null);
    if (text === null) return null;
    const hash = this.runtime.sha256(text);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(path, { size: info.size, mtimeMs: info.mtimeMs, hash });
    return hash;
  }
}
