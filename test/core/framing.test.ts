import assert from "node:assert/strict";
import { it } from "node:test";
import { encodeFrame, FrameError, frameReader, frameStream, MAX_FRAME_BYTES } from "../../src/core/framing.ts";

/** Every message read from `bytes` pushed in chunks of `size` bytes (each a view into a larger buffer, as Node's are). */
function readInChunks(bytes: Uint8Array, size: number): unknown[] {
  const messages: unknown[] = [];
  const push = frameReader((message) => messages.push(message));
  for (let at = 0; at < bytes.length; at += size) {
    const padded = new Uint8Array(size + 16);
    const piece = bytes.subarray(at, at + size);
    padded.set(piece, 8);
    push(padded.subarray(8, 8 + piece.length));
  }
  return messages;
}

it("frames split anywhere (inside a header too) and several in one chunk are read whole, in order", () => {
  const messages = [{ t: "a", text: "é".repeat(300) }, { t: "b" }, { t: "c", n: [1, 2, 3] }];
  const stream = new Uint8Array(messages.reduce((total, message) => total + encodeFrame(message).length, 0));
  let at = 0;
  for (const message of messages) {
    stream.set(encodeFrame(message), at);
    at += encodeFrame(message).length;
  }
  for (const size of [1, 2, 3, 5, 7, 64, stream.length]) assert.deepEqual(readInChunks(stream, size), messages, `chunks of ${size}`);
});

it("a 32 MiB frame in 64 KiB chunks is read whole (the chunks are joined once, not once per chunk)", () => {
  const big = { t: "big", text: "x".repeat(32 * 1024 * 1024) };
  const messages = readInChunks(encodeFrame(big), 64 * 1024);
  assert.equal((messages[0] as typeof big).text.length, big.text.length);
});

it("an oversized header or a body that is not JSON is a FrameError", () => {
  const header = new Uint8Array(4);
  new DataView(header.buffer).setUint32(0, 0xffffffff);
  assert.throws(() => frameReader(() => {})(header), FrameError);
  const garbage = new Uint8Array([0, 0, 0, 3, 123, 123, 123]);
  assert.throws(() => frameReader(() => {})(garbage), /not UTF-8 JSON/);
});

it("frameStream: messages until the first broken frame, then one onBroken and nothing more (the stream is out of step)", () => {
  const messages: unknown[] = [];
  const broken: Error[] = [];
  const push = frameStream(
    (message) => messages.push(message),
    (error) => broken.push(error),
  );
  const oversized = new Uint8Array(4);
  new DataView(oversized.buffer).setUint32(0, MAX_FRAME_BYTES + 1);
  const stream = new Uint8Array([...encodeFrame({ n: 1 }), ...oversized, ...encodeFrame({ n: 2 })]);
  push(stream.subarray(0, 3));
  push(stream.subarray(3));
  push(encodeFrame({ n: 3 }));
  assert.deepEqual(messages, [{ n: 1 }]);
  assert.equal(broken.length, 1);
  assert.ok(broken[0] instanceof FrameError && broken[0].code === "bad_frame");
  assert.match(broken[0].message, /exceeds the 67108864-byte limit/);
});

it("frameStream: what onMessage throws (a message of the wrong kind) ends the stream the same way", () => {
  const broken: Error[] = [];
  const push = frameStream(
    () => {
      throw new Error("not a request");
    },
    (error) => broken.push(error),
  );
  push(new Uint8Array([...encodeFrame({}), ...encodeFrame({})]));
  assert.deepEqual(
    broken.map((error) => error.message),
    ["not a request"],
  );
});
