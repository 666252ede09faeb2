import assert from "node:assert/strict";
import { it } from "node:test";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { replayingTransport } from "../../src/cli/front-transport.ts";

// What makes the front's answers checked: every reply of the SDK's server to a replayed request is compared with what
// the front sent, byte for byte (so a front answering under settings the server does not have is reported whenever
// the client saw a difference), and dropped; every other message passes.
it("drops the server's replies to the replays, reports one that differs from the front's, and passes the rest", async () => {
  const [server, client] = InMemoryTransport.createLinkedPair();
  const logs: string[] = [];
  const replays = new Map([
    ["replay-1", { method: "initialize", result: JSON.stringify({ same: true }) }],
    ["replay-2", { method: "tools/list", result: JSON.stringify({ tools: ["front"] }) }],
  ]);
  const outer = replayingTransport(server, replays, (text) => logs.push(text));
  const received: JSONRPCMessage[] = [];
  client.onmessage = (message) => received.push(message);
  await client.start();
  await outer.start();
  await outer.send({ jsonrpc: "2.0", id: "replay-1", result: { same: true } });
  await outer.send({ jsonrpc: "2.0", id: "replay-2", result: { tools: ["server"] } });
  await outer.send({ jsonrpc: "2.0", id: 7, result: {} });
  await outer.send({ jsonrpc: "2.0", id: "replay-1", result: { later: true } }); // the id is spent: passed on
  assert.deepEqual(received, [
    { jsonrpc: "2.0", id: 7, result: {} },
    { jsonrpc: "2.0", id: "replay-1", result: { later: true } },
  ]);
  assert.equal(logs.length, 1);
  assert.match(logs[0] ?? "", /tools\/list answer differs from the server's .*front \{"tools":\["front"\]\}, server \{"tools":\["server"\]\}/);
  assert.equal(replays.size, 0);
});
