import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { VERSION } from "../version.ts";
import { catalogEntry, sdkServer, TOOLS } from "./server.ts";
import { jsonAfterKey, type ToolCatalog } from "./tool-answers.ts";

/**
 * The catalog build/bundle.mjs embeds (mcp/tool-answers.ts): every tool's schemas from its zod contracts, and
 * initialize's result as the SDK's own Server answers it, so the stdio front can answer both without zod or the SDK.
 */
export async function prepareToolCatalog(): Promise<ToolCatalog> {
  return {
    protocol: { latest: LATEST_PROTOCOL_VERSION, supported: [...SUPPORTED_PROTOCOL_VERSIONS] },
    initialize: { writing: jsonAfterKey(JSON.stringify(await initializeRest(false))), readOnly: jsonAfterKey(JSON.stringify(await initializeRest(true))) },
    tools: TOOLS.map(catalogEntry),
  };
}

/** The SDK server's initialize result after `protocolVersion` (which the front negotiates per request). */
async function initializeRest(readOnly: boolean): Promise<Record<string, unknown>> {
  const server = sdkServer(readOnly);
  const [client, side] = InMemoryTransport.createLinkedPair();
  await server.connect(side);
  const answer = new Promise<JSONRPCMessage>((resolve) => (client.onmessage = resolve));
  await client.start();
  const params = { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "signalint-build", version: VERSION } };
  await client.send({ jsonrpc: "2.0", id: 1, method: "initialize", params });
  const message = await answer;
  await server.close();
  if (!("result" in message)) throw new Error(`the SDK server refused initialize: ${JSON.stringify(message)}`);
  const { protocolVersion: _negotiated, ...rest } = message.result;
  return rest;
}
