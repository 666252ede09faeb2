import assert from "node:assert/strict";
import { it } from "node:test";
import { encodeFrame, frameReader } from "../../src/core/framing.ts";
import { readClientMessage, readDaemonMessage } from "../../src/daemon/protocol.ts";
import { readyRecord } from "../../src/daemon/record.ts";

/** A message as the peer reads it: framed, unframed, then read by `read`. */
function overTheWire<T>(message: unknown, read: (value: unknown) => T): T {
  const received: unknown[] = [];
  frameReader((value) => received.push(value))(encodeFrame(message));
  assert.equal(received.length, 1);
  return read(received[0]);
}

it("every message kind reads back as it was sent (a call without params, as info() sends, included)", () => {
  const client = [
    { t: "hello", protocol: 2, version: "1.2.3", root: "/p", env: { PATH: "/bin" } },
    { t: "hello", protocol: 2, version: "1.2.3", root: "/p" },
    { t: "call", id: 1, method: "check", params: { paths: ["."], incremental: true }, session: "s" },
    { t: "call", id: 2, method: "info", params: undefined },
    { t: "cancel", id: 1 },
  ];
  for (const message of client) assert.deepEqual(overTheWire(message, readClientMessage), JSON.parse(JSON.stringify(message)));
  const daemon = [
    { t: "welcome", protocol: 2, version: "1.2.3", pid: 42, root: "/p", token: "abc" },
    { t: "result", id: 1, value: { response: { status: "clean" }, issues: [] } },
    { t: "result", id: 2, value: null },
    { t: "error", id: 1, code: "cancelled", message: "the check was cancelled" },
    { t: "event", id: 1, event: { kind: "engine-started", engine: "tsc" } },
    { t: "refused", reason: "another root", draining: false },
    { t: "refused", reason: "replaced", draining: true },
  ];
  for (const message of daemon) assert.deepEqual(overTheWire(message, readDaemonMessage), message);
});

it("an earlier protocol's refusal (no draining) is read as draining", () => {
  assert.deepEqual(overTheWire({ t: "refused", reason: "shutting down" }, readDaemonMessage), { t: "refused", reason: "shutting down", draining: true });
});

it("a message that is not one of the protocol's is refused (the peer's connection is then closed)", () => {
  const client = [
    null,
    [],
    { t: "call", id: 1, method: "constructor", params: {} },
    { t: "call", id: -1, method: "info" },
    { t: "call", id: 1.5, method: "info" },
    { t: "call", id: 1, method: "info", session: 3 },
    { t: "hello", protocol: "2", version: "1", root: "/p" },
    { t: "hello", protocol: 2, version: "1", root: "/p", env: { PATH: 1 } },
    { t: "cancel" },
    { t: "bye" },
  ];
  for (const message of client) assert.equal(overTheWire(message, readClientMessage), null, JSON.stringify(message));
  const daemon = [
    { t: "welcome", protocol: 2, version: "1", pid: 42, root: "/p" },
    { t: "result", id: 1 },
    { t: "error", id: 1, code: "x" },
    { t: "event", id: 1, event: "started" },
    { t: "event", id: 1, event: [] },
    { t: "refused", draining: true },
    { t: "hello", protocol: 2, version: "1", root: "/p" },
  ];
  for (const message of daemon) assert.equal(overTheWire(message, readDaemonMessage), null, JSON.stringify(message));
});

it("a starting daemon's ready line is read as its record file is: a record, or null for garbage or another shape", () => {
  const record = { pid: 42, startedAt: "2026-01-01T00:00:00.000Z", socket: "/tmp/s", version: "1.2.3", protocol: 2, root: "/p", token: "t", startTime: "9" };
  assert.deepEqual(readyRecord(JSON.stringify(record)), record);
  assert.equal(readyRecord("{not json"), null);
  assert.equal(readyRecord(JSON.stringify({ ...record, pid: "42" })), null);
});
