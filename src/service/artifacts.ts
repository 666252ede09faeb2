import { join } from "node:path";
import { quoteInput, SignalintError } from "../core/errors.ts";
import type { Runtime } from "../runtime/types.ts";

const ID = /^a[0-9a-f]{24}$/;

/** One chunk of an artifact as artifact_read returns it. */
export interface ArtifactChunk {
  artifactId: string;
  mimeType: "application/json";
  offset: number;
  totalBytes: number;
  /** Where the next chunk starts, or null at the end. */
  nextOffset: number | null;
  eof: boolean;
  /** Base64 of bytes [offset, offset + chunk length). */
  data: string;
}

/** Full values of oversized results, saved in `<stateDir>/artifacts/` and readable in chunks until they expire. */
export class ArtifactStore {
  private readonly dir: string;

  constructor(private readonly runtime: Runtime, stateDir: string, private readonly retentionMs: number) {
    this.dir = join(stateDir, "artifacts");
  }

  /** Save a serialized value; returns its id, or null when it could not be written (the caller reports that). */
  async save(json: string): Promise<string | null> {
    try {
      await this.runtime.mkdirp(this.dir);
      await this.sweep();
      const id = `a${this.runtime.sha256(`${Date.now()}:${Math.random()}:${json.length}`).slice(0, 24)}`;
      await this.runtime.writeFileAtomic(join(this.dir, `${id}.json`), json);
      return id;
    } catch (error) {
      this.runtime.writeStderr(`signalint: could not save artifact: ${(error as Error).message}\n`);
      return null;
    }
  }

  /** Read `maxBytes` bytes from `offset`. Unknown and expired ids are errors with distinct codes. */
  async read(artifactId: string, offset: number, maxBytes: number): Promise<ArtifactChunk> {
    if (!ID.test(artifactId)) throw new SignalintError("artifact_not_found", `Artifact ${quoteInput(artifactId)} not found or expired`);
    const path = join(this.dir, `${artifactId}.json`);
    const info = await this.runtime.stat(path);
    if (!info) throw new SignalintError("artifact_not_found", `Artifact ${artifactId} not found or expired`);
    if (Date.now() - info.mtimeMs > this.retentionMs) {
      await this.runtime.removeFile(path);
      throw new SignalintError("artifact_expired", `Artifact ${artifactId} expired (kept ${Math.round(this.retentionMs / 1000)} s); call the tool again`);
    }
    const bytes = new TextEncoder().encode(await this.runtime.readText(path));
    if (offset > bytes.length) throw new SignalintError("invalid_arguments", `offset ${offset} is past the end (${bytes.length} bytes)`);
    const end = Math.min(bytes.length, offset + maxBytes);
    const eof = end >= bytes.length;
    return { artifactId, mimeType: "application/json", offset, totalBytes: bytes.length, nextOffset: eof ? null : end, eof, data: toBase64(bytes.subarray(offset, end)) };
  }

  /** Delete expired artifacts (best effort). */
  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const entry of await this.runtime.readDir(this.dir).catch(() => [])) {
      const path = join(this.dir, entry.name);
      const info = await this.runtime.stat(path);
      if (info && now - info.mtimeMs > this.retentionMs) await this.runtime.removeFile(path).catch(() => {});
    }
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
