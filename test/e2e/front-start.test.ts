import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { deferredApi, type OpenedApi } from "../../src/client/open.ts";
import { resolveSettings } from "../../src/core/config.ts";
import { createMcpServer } from "../../src/mcp/server.ts";

/** The MCP front answers before the service is reached: a daemon that takes seconds to start delays only tool calls. */
describe("the MCP front's start", () => {
  it("answers initialize and tools/list while the service is still being opened; a tool call waits for it", async () => {
    let open: (opened: OpenedApi) => void = () => {};
    const opening = new Promise<OpenedApi>((resolve) => (open = resolve));
    const settings = resolveSettings({}, () => undefined);
    const server = createMcpServer({ api: deferredApi(opening), projectRoot: "/project", settings, log: () => {} });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "front-start", version: "1.0.0" });
    try {
      await client.connect(clientSide);
      const { tools } = await client.listTools();
      assert.ok(
        tools.some((tool) => tool.name === "check_files"),
        "tools listed with the service not open yet",
      );
      const calls: string[] = [];
      const pending = client.callTool({ name: "get_loop_status", arguments: {} }).then(() => calls.push("answered"));
      const status = { looping: false, signatures: [], fileRuleChurns: [] };
      const api = { loopStatus: async () => status } as unknown as OpenedApi["api"];
      calls.push("opened");
      open({ api } as OpenedApi);
      await pending;
      assert.deepEqual(calls, ["opened", "answered"], "the tool call waited for the service");
    } finally {
      await client.close();
      await server.close();
    }
  });
});
