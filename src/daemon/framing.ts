/** Largest frame either side accepts (a preview request is ≤ 8 MiB; check answers with every issue can be large). */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** A peer that broke the framing (oversized, not UTF-8, not JSON): its connection is closed. */
export class FrameError extends Error {
  readonly code = "bad_frame";
  constructor(message: string) {
    super(message);
    this.name = "FrameError";
  }
}

/** One message as bytes: a 4-byte big-endian length, then that many bytes of UTF-8 JSON. */
export function encodeFrame(message: unknown): Uint8Array {
  const body = encoder.encode(JSON.stringify(message));
  if (body.length > MAX_FRAME_BYTES) throw new FrameError(`a message of ${body.length} bytes exceeds the ${MAX_FRAME_BYTES}-byte frame limit`);
  const frame = new Uint8Array(4 + body.length);
  new DataView(frame.buffer).setUint32(0, body.length);
  frame.set(body, 4);
  return frame;
}

/**
 * Turns a byte stream into messages: `push` each chunk as it arrives; each complete frame is parsed and handed to
 * `onMessage`. A frame over the limit or that is not UTF-8 JSON throws FrameError (the caller closes that peer).
 */
export function frameReader(onMessage: (message: unknown) => void): (chunk: Uint8Array) => void {
  let pending = new Uint8Array(0);
  return (chunk) => {
    const joined = new Uint8Array(pending.length + chunk.length);
    joined.set(pending);
    joined.set(chunk, pending.length);
    let offset = 0;
    while (joined.length - offset >= 4) {
      const length = new DataView(joined.buffer, offset, 4).getUint32(0);
      if (length > MAX_FRAME_BYTES) throw new FrameError(`a frame of ${length} bytes exceeds the ${MAX_FRAME_BYTES}-byte limit`);
      if (joined.length - offset - 4 < length) break;
      const body = joined.subarray(offset + 4, offset + 4 + length);
      offset += 4 + length;
      let message: unknown;
      try {
        message = JSON.parse(decoder.decode(body));
      } catch (error) {
        throw new FrameError(`a frame is not UTF-8 JSON: ${(error as Error).message.slice(0, 100)}`);
      }
      onMessage(message);
    }
    pending = joined.slice(offset);
  };
}
