import { join } from "node:path";
import { ifMissing, quoteInput, SignalintError } from "../../core/errors.ts";
import type { Runtime } from "../../runtime/types.ts";

const ID = /^a[0-9a-f]{24}$/;

/** First line of an artifact file: the sha256 of the body that follows, written in the same atomic write. */
const HEADER = /^signalint-artifact sha256:([0-9a-f]{64})\n/;

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

/**
 * Full values of oversized results, saved in `<stateDir>/artifacts/<id>.artifact` (a checksum header line, then the
 * JSON) and readable in chunks until they expire. A file whose body does not match its checksum is never served.
 */
export class ArtifactStore {
  private readonly dir: string;

  constructor(
    private readonly runtime: Runtime,
    stateDir: string,
    private readonly retentionMs: number,
  ) {
    this.dir = join(stateDir, "artifacts");
  }

  /** Save a serialized value and return its id; throws `artifact_write_failed` when it cannot be written. */
  async save(json: string): Promise<string> {
    try {
      await this.runtime.mkdirp(this.dir);
      await this.sweep();
      const id = `a${this.runtime.sha256(`${Date.now()}:${Math.random()}:${json.length}`).slice(0, 24)}`;
      await this.runtime.writeFileAtomic(this.pathOf(id), `signalint-artifact sha256:${this.runtime.sha256(json)}\n${json}`);
      return id;
    } catch (error) {
      const reason = (error as Error).message.slice(0, 300);
      throw new SignalintError(
        "artifact_write_failed",
        `The result is too large to return inline and could not be saved as an artifact (${reason}); narrow the request or free the state directory`,
      );
    }
  }

  private pathOf(id: string): string {
    return join(this.dir, `${id}.artifact`);
  }

  /** Read `maxBytes` bytes from `offset`. Unknown and expired ids are errors with distinct codes. */
  async read(artifactId: string, offset: number, maxBytes: number): Promise<ArtifactChunk> {
    if (!ID.test(artifactId)) throw new SignalintError("artifact_not_found", `Artifact ${quoteInput(artifactId)} not found or expired`);
    const path = this.pathOf(artifactId);
    const info = await this.runtime.stat(path);
    if (!info) throw new SignalintError("artifact_not_found", `Artifact ${artifactId} not found or expired`);
    if (Date.now() - info.mtimeMs > this.retentionMs) {
      await this.runtime.removeFile(path);
      throw new SignalintError("artifact_expired", `Artifact ${artifactId} expired (kept ${Math.round(this.retentionMs / 1000)} s); call the tool again`);
    }
    const bytes = new TextEncoder().encode(await this.verifiedBody(artifactId, path));
    if (offset > bytes.length) throw new SignalintError("invalid_arguments", `offset ${offset} is past the end (${bytes.length} bytes)`);
    const end = Math.min(bytes.length, offset + maxBytes);
    const eof = end >= bytes.length;
    return {
      artifactId,
      mimeType: "application/json",
      offset,
      totalBytes: bytes.length,
      nextOffset: eof ? null : end,
      eof,
      data: toBase64(bytes.subarray(offset, end)),
    };
  }

  /** The artifact's JSON after checking it against its header's sha256; a damaged file is `artifact_corrupt`. */
  private async verifiedBody(artifactId: string, path: string): Promise<string> {
    const text = await this.runtime.readText(path);
    const header = HEADER.exec(text);
    const body = header ? text.slice(header[0].length) : "";
    if (!header || this.runtime.sha256(body) !== header[1]) {
      throw new SignalintError("artifact_corrupt", `Artifact ${artifactId} is damaged (its content does not match its checksum); call the tool again`);
    }
    return body;
  }

  /** Delete expired artifacts (best effort). */
  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const entry of await this.runtime.readDir(this.dir).catch(ifMissing([]))) {
      const path = join(this.dir, entry.name);
      const info = await this.runtime.stat(path);
      // Best effort: an artifact that cannot go now is swept again next time.
      if (info && now - info.mtimeMs > this.retentionMs) await this.runtime.removeFile(path).catch(() => {});
    }
  }
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
