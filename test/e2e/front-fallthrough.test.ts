import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { removeDir, tempDir } from "../helpers.ts";
import { type Message, rawServer } from "./front-answers.ts";

// What the stdio front must leave to the SDK's server: a request the SDK refuses gets the SDK's own reply (or, for a
// line its transport drops, none), as without the front.

const params = { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fallthrough-test", version: "1" } };

/** initialize and tools/list lines the SDK refuses, each with its own id (the reply, if any, is keyed by it). */
const REFUSED: string[] = [
  { id: 11, method: "initialize", params: { ...params, clientInfo: { name: "a", version: "1", title: 5 } } },
  { id: 12, method: "initialize", params: { ...params, _meta: 5 } },
  { id: 13, method: "initialize", params, extra: true }, // the JSON-RPC envelope is strict: the SDK's transport drops it
  { id: 14, method: "initialize", params: { ...params, capabilities: { sampling: 5 } } },
  { id: 15, method: "initialize", params: { ...params, capabilities: { roots: { listChanged: "yes" } } } },
  { id: 16, method: "initialize", params: { ...params, capabilities: { experimental: { feature: 1 } } } },
  { id: 17, method: "initialize", params: { ...params, clientInfo: { name: "a", version: "1", icons: [{ src: 1 }] } } },
  { id: 18, method: "initialize", params: { ...params, protocolVersion: 20250618 } },
  { id: 19, method: "initialize", params: { ...params, capabilities: { elicitation: { form: { applyDefaults: "yes" } } } } },
  { id: 20, method: "tools/list", params: { _meta: { progressToken: 1.5 } } },
  { id: 21, method: "tools/list", params: { cursor: 5 } },
  { id: 22.5, method: "tools/list" },
  { id: 23, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/related-task": { taskId: 7 } } } },
].map((message) => JSON.stringify({ jsonrpc: "2.0", ...message }));

/** Each reply line by its id, after every line was sent in one write and a final ping answered. */
async function replies(project: string, front: string, lines: string[]) {
  const server = rawServer(project, { SIGNALINT_FRONT: front });
  const done = server.answer("end");
  server.sendLine([...lines, JSON.stringify({ jsonrpc: "2.0", id: "end", method: "ping" })].join("\n"));
  await done;
  server.end();
  const { code, stderr } = await server.exited;
  assert.equal(code, 0, stderr);
  assert.doesNotMatch(stderr, /differs from the server's/);
  return { byId: new Map(server.lines.map((line) => [(JSON.parse(line) as Message).id, line])), stderr };
}

describe("the stdio front leaves to the SDK what the SDK refuses", () => {
  it("an initialize or tools/list the SDK's schemas refuse gets the SDK's own reply, or none, with the front on as off", async () => {
    const project = tempDir("signalint-front-refused-");
    writeFileSync(join(project, "package.json"), "{}");
    // The well-formed pair after them is answered either way: the front still answers what it may.
    const good = [JSON.stringify({ jsonrpc: "2.0", id: 30, method: "initialize", params }), JSON.stringify({ jsonrpc: "2.0", id: 31, method: "tools/list" })];
    const on = await replies(project, "1", [...REFUSED, ...good]);
    const off = await replies(project, "0", [...REFUSED, ...good]);
    assert.deepEqual([...on.byId.keys()].sort(), [...off.byId.keys()].sort());
    for (const [id, line] of off.byId) assert.equal(on.byId.get(id), line, `id ${String(id)}`);
    assert.ok(off.byId.has(30) && off.byId.has(31) && off.byId.has(11), "the SDK answered the good pair and refused id 11");
    assert.ok(!off.byId.has(13), "the SDK's transport drops an envelope with an unknown key");
    removeDir(project);
  });
});

describe("the stdio front never dies on a line the server answers", () => {
  it("a tools/list whose _meta nests 5,000 deep (JSON.parse reads it, JSON.stringify overflows): the server's own reply, on as off", async () => {
    const project = tempDir("signalint-front-deep-");
    writeFileSync(join(project, "package.json"), "{}");
    const deep = `${"[".repeat(5000)}${"]".repeat(5000)}`;
    const lines = [
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params }),
      `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"deep":${deep}}}}`,
    ];
    const on = await replies(project, "1", lines);
    const off = await replies(project, "0", lines);
    assert.deepEqual([...on.byId.keys()].sort(), [...off.byId.keys()].sort());
    for (const [id, line] of off.byId) assert.equal(on.byId.get(id), line, `id ${String(id)}`);
    removeDir(project);
  });
});

describe("the stdio front's queue and replays", () => {
  it("a notification waits in the queue without loading the server: tools/list does (SIGNALINT_FRONT=debug says why)", async () => {
    const project = tempDir("signalint-front-notify-");
    writeFileSync(join(project, "package.json"), "{}");
    const server = rawServer(project, { SIGNALINT_FRONT: "debug" });
    const initialized = server.answer(1);
    server.send({ id: 1, method: "initialize", params });
    await initialized;
    // As clients do: the notification on its own, then tools/list once it is written.
    server.send({ method: "notifications/initialized" });
    const listed = server.answer(2);
    server.send({ id: 2, method: "tools/list" });
    await listed;
    const pinged = server.answer(3);
    server.send({ id: 3, method: "ping" });
    await pinged;
    server.end();
    const { code, stderr } = await server.exited;
    assert.equal(code, 0, stderr);
    assert.match(stderr, /signalint front: [\d.]+ ms[^:]*: answered initialize \(id 1\)/);
    assert.doesNotMatch(stderr, /loading the server: a line it does not answer/, "the notification loaded the server");
    assert.equal(stderr.match(/loading the server/g)?.length, 1, stderr);
    removeDir(project);
  });

  it("a client's request whose id a fixed replay id would have is answered (replay ids are random per process)", async () => {
    const project = tempDir("signalint-front-ids-");
    writeFileSync(join(project, "package.json"), "{}");
    const server = rawServer(project, { SIGNALINT_FRONT: "debug" });
    const ids = ["signalint-front-1", "signalint-front-2", 1, 2];
    const answers = ids.map((id) => server.answer(id));
    // The pings reach the SDK's server before the replays of the two requests the front answers after them.
    server.send({ id: ids[0], method: "ping" }, { id: ids[1], method: "ping" }, { id: 1, method: "initialize", params }, { id: 2, method: "tools/list" });
    const [first, second, init, list] = (await Promise.all(answers)).map((line) => JSON.parse(line) as Message & { error?: unknown });
    server.end();
    const { code, stderr } = await server.exited;
    assert.equal(code, 0, stderr);
    assert.deepEqual([first?.result, second?.result], [{}, {}]);
    assert.equal(init?.result?.protocolVersion, "2025-06-18");
    assert.ok(Array.isArray(list?.result?.tools));
    assert.match(stderr, /answered initialize \(id 1\)/);
    assert.doesNotMatch(stderr, /differs from the server's/);
    removeDir(project);
  });
});
