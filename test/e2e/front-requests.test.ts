import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ClientCapabilitiesSchema,
  ImplementationSchema,
  InitializeRequestParamsSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  JSONRPCRequestSchema,
  ListToolsRequestSchema,
  PaginatedRequestParamsSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { classifyLine, KNOWN_KEYS } from "../../src/cli/front-requests.ts";

// The front's hand check of initialize and tools/list (cli/front-requests.ts) against the SDK's own schemas: whatever
// the front answers, the SDK's transport and handler accept; what clients send, the front answers.

/** Would the SDK's server answer this line with a result: its transport's envelope schema, then its handler's. */
function sdkAccepts(line: string): boolean {
  const message = JSON.parse(line);
  if (!JSONRPCMessageSchema.safeParse(message).success) return false;
  const schema = message.method === "initialize" ? InitializeRequestSchema : message.method === "tools/list" ? ListToolsRequestSchema : null;
  return schema !== null && schema.safeParse(message).success;
}

const FULL_INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    _meta: { progressToken: "p", other: [1] },
    protocolVersion: "2025-11-25",
    capabilities: {
      experimental: { feature: {} },
      sampling: { context: {}, tools: {} },
      elicitation: { form: { applyDefaults: true }, url: {} },
      roots: { listChanged: true },
      tasks: { list: {}, cancel: {}, requests: { sampling: { createMessage: {} }, elicitation: { create: {} } } },
      extensions: { "io.example/ext": {} },
    },
    clientInfo: {
      name: "client",
      title: "Client",
      icons: [{ src: "https://example.com/i.png", mimeType: "image/png", sizes: ["48x48"], theme: "dark" }],
      version: "1.0.0",
      websiteUrl: "https://example.com",
      description: "a client",
    },
  },
};
const FULL_LIST = { jsonrpc: "2.0", id: "list", method: "tools/list", params: { _meta: { progressToken: 7 }, cursor: "c" } };

/** Shapes clients send (capabilities as Cursor-like clients spell them: booleans the SDK's schema drops). */
const CLIENT_LINES = [
  {
    protocolVersion: "2025-06-18",
    capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} },
    clientInfo: { name: "vscode", version: "1.101.0" },
  },
  {
    protocolVersion: "2025-06-18",
    capabilities: { tools: true, prompts: false, roots: { listChanged: false } },
    clientInfo: { name: "cursor", version: "1.0.0" },
  },
  { protocolVersion: "2025-06-18", capabilities: { elicitation: {} }, clientInfo: { name: "codex-mcp-client", title: "Codex", version: "0.40.0" } },
  { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "claude-code", version: "2.0.0" } },
].map((params, index) => JSON.stringify({ jsonrpc: "2.0", id: index, method: "initialize", params }));

const REPLACEMENTS: unknown[] = [5, 1.5, 2 ** 53, -1, "s", "", null, true, [], [{}], {}, { unknown: 1 }];

/** A copy with an own `__proto__` key, as JSON.parse makes one. */
function withOwnProto(value: object): object {
  const copy = { ...value };
  Object.defineProperty(copy, "__proto__", { value: 1, enumerable: true, configurable: true, writable: true });
  return copy;
}

/** Every variant of `value` with one node replaced by each replacement, removed, or given an unknown key. */
function mutations(value: unknown): unknown[] {
  if (typeof value !== "object" || value === null) return REPLACEMENTS;
  const out: unknown[] = [];
  const entries = Object.entries(value as Record<string, unknown>);
  const rebuild = (key: string, next: unknown) => (Array.isArray(value) ? value.map((v, i) => (String(i) === key ? next : v)) : { ...value, [key]: next });
  for (const [key, child] of entries) {
    for (const next of [...mutations(child), ...REPLACEMENTS]) out.push(rebuild(key, next));
    if (!Array.isArray(value)) out.push(Object.fromEntries(entries.filter(([other]) => other !== key)));
  }
  if (!Array.isArray(value)) out.push({ ...value, unknownKey: {} }, withOwnProto(value));
  return out;
}

describe("the stdio front's hand check of initialize and tools/list", () => {
  it("checks the keys the SDK's schemas have (an SDK update that adds one fails here)", () => {
    const keys = (schema: { shape: object }) => Object.keys(schema.shape).sort();
    assert.deepEqual([...KNOWN_KEYS.envelope].sort(), keys(JSONRPCRequestSchema));
    assert.deepEqual([...KNOWN_KEYS.initializeParams].sort(), keys(InitializeRequestParamsSchema));
    assert.deepEqual([...KNOWN_KEYS.listParams].sort(), keys(PaginatedRequestParamsSchema));
    assert.deepEqual([...KNOWN_KEYS.capabilities].sort(), keys(ClientCapabilitiesSchema));
    assert.deepEqual([...KNOWN_KEYS.clientInfo].sort(), keys(ImplementationSchema));
  });

  it("answers only what the SDK accepts, over every one-node change of a full initialize and tools/list", () => {
    let answered = 0;
    let cases = 0;
    for (const base of [FULL_INITIALIZE, FULL_LIST]) {
      for (const variant of [base, ...mutations(base)]) {
        const line = JSON.stringify(variant);
        cases++;
        if (classifyLine(line).kind !== "answer") continue;
        answered++;
        assert.ok(sdkAccepts(line), `the front would answer what the SDK refuses: ${line}`);
      }
    }
    // Not a check that refuses everything: the full messages and the harmless changes (an unknown capability, a
    // dropped optional field, another protocol version string) are answered.
    assert.ok(answered > 100 && cases > 2 * answered, `${answered} of ${cases} answered`);
  });

  it("answers what clients send, and the two full messages", () => {
    for (const line of [...CLIENT_LINES, JSON.stringify(FULL_INITIALIZE), JSON.stringify(FULL_LIST), '{"jsonrpc":"2.0","id":2,"method":"tools/list"}']) {
      assert.ok(sdkAccepts(line), line);
      assert.equal(classifyLine(line).kind, "answer", line);
    }
  });

  it("queues a notification without asking for the server; hands on anything else", () => {
    assert.deepEqual(classifyLine('{"jsonrpc":"2.0","method":"notifications/initialized"}'), { kind: "notification", method: "notifications/initialized" });
    for (const line of ['{"jsonrpc":"2.0","id":3,"method":"ping"}', "not json", "[]", '{"jsonrpc":"2.0","id":null,"method":"tools/list"}'])
      assert.equal(classifyLine(line).kind, "other", line);
  });
});
