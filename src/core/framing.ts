// The one framing of every channel between Signalint's processes: a client and its daemon (a socket: daemon/,
// client/connection.ts) and the server and a warm TypeScript host (stdio pipes: typescript/warm-host*.ts). Pure bytes
// in and out, no runtime: each message family (daemon/protocol.ts, typescript/host-protocol.ts) validates and
// versions what a frame carries with its own zod schemas.

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

/** The chunks as one array (the only one when there is one). */
function joinChunks(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const joined = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.length;
  }
  return joined;
}

/** A frame body as its message; not UTF-8 JSON throws FrameError. */
function parseBody(body: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(body));
  } catch (error) {
    throw new FrameError(`a frame is not UTF-8 JSON: ${(error as Error).message.slice(0, 100)}`);
  }
}

/**
 * Turns a byte stream into messages: `push` each chunk as it arrives; each complete frame is parsed and handed to
 * `onMessage`. A frame over the limit or that is not UTF-8 JSON throws FrameError (the caller closes that peer).
 * Chunks are kept as they come and joined once a frame is complete: a 50 MiB frame in 64 KiB chunks is copied once,
 * not once per chunk (which took minutes).
 */
export function frameReader(onMessage: (message: unknown) => void): (chunk: Uint8Array) => void {
  let chunks: Uint8Array[] = [];
  let buffered = 0;
  // The body length of the frame being read, once its 4-byte header has arrived.
  let length: number | null = null;
  return (chunk) => {
    chunks.push(chunk);
    buffered += chunk.length;
    while (buffered >= (length === null ? 4 : 4 + length)) {
      const joined = joinChunks(chunks, buffered);
      chunks = [joined];
      if (length === null) {
        length = new DataView(joined.buffer, joined.byteOffset, 4).getUint32(0);
        if (length > MAX_FRAME_BYTES) throw new FrameError(`a frame of ${length} bytes exceeds the ${MAX_FRAME_BYTES}-byte limit`);
        continue;
      }
      const body = joined.subarray(4, 4 + length);
      const rest = joined.subarray(4 + length);
      chunks = rest.length ? [rest] : [];
      buffered = rest.length;
      length = null;
      onMessage(parseBody(body));
    }
  };
}

/**
 * A frameReader for a peer that is dropped at its first broken frame: `onBroken` is told once (with the FrameError,
 * or whatever `onMessage` threw) and every later chunk is ignored, since the stream is out of step from there.
 */
export function frameStream(onMessage: (message: unknown) => void, onBroken: (error: Error) => void): (chunk: Uint8Array) => void {
  const read = frameReader(onMessage);
  let broken = false;
  return (chunk) => {
    if (broken) return;
    try {
      read(chunk);
    } catch (error) {
      broken = true;
      onBroken(error as Error);
    }
  };
}
