import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { ServerSettings } from "../../src/core/server-settings.ts";
import { call, connect, removeDir, scratchCopy, structured, tempDir } from "../helpers.ts";
import { liveToolList, type Message, rawServer, sdkInitialize } from "./front-answers.ts";

const initialize = (protocolVersion: string) => ({
  id: 1,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "front-test", version: "1" } },
});

/** A client's start on raw stdio: initialize, initialized, tools/list, then a ping call (served once the server took over). */
async function start(cwd: string, requested: string, env: Record<string, string> = {}, args: string[] = []) {
  const server = rawServer(cwd, env, args);
  const initialized = server.answer(1);
  server.send(initialize(requested));
  const init = await initialized;
  const listed = server.answer(2);
  server.send({ method: "notifications/initialized" }, { id: 2, method: "tools/list" });
  const list = await listed;
  const pinged = server.answer(3);
  server.send({ id: 3, method: "tools/call", params: { name: "ping", arguments: {} } });
  const ping = await pinged;
  server.end();
  return { init, list, ping, ...(await server.exited) };
}

describe("the stdio front (initialize and tools/list before the rest of Signalint is loaded)", () => {
  const cases: { label: string; settings: ServerSettings; env?: Record<string, string>; config?: string; args?: string[]; requested: string }[] = [
    { label: "defaults", settings: { payloadMode: "both", compact: false, readOnly: false }, requested: "2024-11-05" },
    { label: "text mode", settings: { payloadMode: "text", compact: false, readOnly: false }, env: { SIGNALINT_MCP_PAYLOAD: "text" }, requested: "1999-01-01" },
    {
      label: "structured, compact",
      settings: { payloadMode: "structured", compact: true, readOnly: false },
      env: { SIGNALINT_MCP_PAYLOAD: "structured", SIGNALINT_COMPACT: "1" },
      requested: "2025-06-18",
    },
    {
      label: "a config file with comments: read-only, compact",
      settings: { payloadMode: "both", compact: true, readOnly: true },
      config: '// the team\'s settings\n{ "readOnly": true, "compact": true, "maxClusters": 5, }\n',
      requested: "2025-03-26",
    },
    { label: "serve --read-only", settings: { payloadMode: "both", compact: false, readOnly: true }, args: ["serve", "--read-only"], requested: "2025-11-25" },
  ];
  for (const { label, settings, env, config, args, requested } of cases) {
    it(`answers byte for byte as the SDK server and the zod schemas do (${label}), then the server takes over`, async () => {
      const project = tempDir("signalint-front-");
      writeFileSync(join(project, "package.json"), "{}");
      if (config) writeFileSync(join(project, "signalint.config.json"), config);
      for (const front of ["debug", "0"]) {
        const run = await start(project, requested, { ...env, SIGNALINT_FRONT: front }, args);
        // Who answered: the front says so on stderr when asked (debug); with it off, nothing is said.
        if (front === "debug") assert.match(run.stderr, /answered initialize \(id 1\)[^]*answered tools\/list \(id 2\)/);
        else assert.doesNotMatch(run.stderr, /signalint front:/);
        assert.equal(run.init, JSON.stringify({ result: await sdkInitialize(settings.readOnly, requested), jsonrpc: "2.0", id: 1 }), `front ${front}`);
        assert.equal(run.list, JSON.stringify({ result: liveToolList(settings), jsonrpc: "2.0", id: 2 }), `front ${front}`);
        assert.match(run.ping, /pong/);
        assert.doesNotMatch(run.stderr, /differs from the server's|the stdio front answered/);
        assert.equal(run.code, 0, run.stderr);
      }
      removeDir(project);
    });
  }

  it("queues what comes before the server is up, in order: a call sent before initialize is answered gets its progress and result", async () => {
    const project = scratchCopy("systemic-ts", "front-queue");
    const server = rawServer(project);
    const answers = [1, 2, 3].map((id) => server.answer(id));
    // One write: the call and its progress token reach the front before any answer has left it.
    server.send(
      initialize("2025-06-18"),
      { method: "notifications/initialized" },
      { id: 2, method: "tools/list" },
      { id: 3, method: "tools/call", params: { name: "check_project", arguments: {}, _meta: { progressToken: "p" } } },
    );
    const [, list, check] = await Promise.all(answers);
    assert.equal((JSON.parse(list as string) as Message).result?.tools instanceof Array, true);
    const result = (JSON.parse(check as string) as Message).result as { structuredContent: { status: string; totalIssues: number } };
    assert.equal(result.structuredContent.status, "issues_found");
    const progress = server.lines.map((line) => JSON.parse(line) as Message).filter((message) => message.method === "notifications/progress");
    assert.ok(progress.length > 0 && progress.every((message) => message.params?.progressToken === "p"), "progress of the queued call");
    const order = server.lines.map((line) => (JSON.parse(line) as Message).id).filter((id) => id !== undefined);
    assert.deepEqual(order, [1, 2, 3]);
    server.end();
    const { code, stderr } = await server.exited;
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /differs from the server's/);
    removeDir(project);
  });

  it("gives the SDK client (output validation on) a normal session: tools listed, check_project validated, as without the front", async () => {
    const project = scratchCopy("systemic-ts", "front-client");
    const sessions = [await connect(project), await connect(project, { SIGNALINT_FRONT: "0" })];
    try {
      const [fronted, direct] = await Promise.all(sessions.map((session) => session.client.listTools()));
      assert.deepEqual(fronted, direct);
      const checks = await Promise.all(sessions.map((session) => call(session.client, "check_project")));
      const [a, b] = checks.map((result) => structured<{ status: string; totalIssues: number }>(result));
      assert.deepEqual([a?.status, a?.totalIssues], [b?.status, b?.totalIssues]);
      assert.equal(a?.status, "issues_found");
      for (const session of sessions) assert.doesNotMatch(session.stderr(), /differs from the server's|the stdio front answered/);
    } finally {
      for (const session of sessions) await session.close();
      removeDir(project);
    }
  });

  it("a config the server refuses (a key the front does not read) ends the session after the front's answers, with the server's message and exit code", async () => {
    const project = tempDir("signalint-front-bad-");
    writeFileSync(join(project, "package.json"), "{}");
    writeFileSync(join(project, "signalint.config.json"), '{ "maxClusters": 0 }');
    for (const [front, answered] of [
      ["1", [1, 2]],
      ["0", []],
    ] as const) {
      const server = rawServer(project, { SIGNALINT_FRONT: front });
      // One write: the front answers both before it loads the server (it does at the tools/list answer).
      server.send(initialize("2025-06-18"), { method: "notifications/initialized" }, { id: 2, method: "tools/list" });
      const { code, stderr } = await server.exited;
      assert.equal(code, 2, stderr);
      assert.match(stderr, /signalint\.config\.json: key 'maxClusters'/);
      assert.deepEqual(
        server.lines.map((line) => (JSON.parse(line) as Message).id),
        answered,
        `SIGNALINT_FRONT=${front}: the front answers; the server alone never gets that far`,
      );
    }
    removeDir(project);
  });

  it("answers nothing when a key tools/list depends on is wrong: the server refuses it before any answer, as before", async () => {
    const project = tempDir("signalint-front-unsure-");
    writeFileSync(join(project, "package.json"), "{}");
    writeFileSync(join(project, "signalint.config.json"), '{ "compact": "yes" }');
    const server = rawServer(project);
    server.send(initialize("2025-06-18"), { method: "notifications/initialized" }, { id: 2, method: "tools/list" });
    const { code, stderr } = await server.exited;
    assert.equal(code, 2, stderr);
    assert.match(stderr, /signalint\.config\.json: key 'compact'/);
    assert.deepEqual(server.lines, []);
    removeDir(project);
  });
});
