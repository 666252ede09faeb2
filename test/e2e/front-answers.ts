import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ServerSettings } from "../../src/core/server-settings.ts";
import { listEntry, offeredTools, sdkServer } from "../../src/mcp/server.ts";

// The answers the stdio front must give, as the SDK and the zod schemas give them now (tool-catalog and stdio-front tests).

/** What the SDK's own Server answers to an initialize asking for `protocolVersion`. */
export async function sdkInitialize(readOnly: boolean, protocolVersion: unknown): Promise<unknown> {
  const server = sdkServer(readOnly);
  const [client, side] = InMemoryTransport.createLinkedPair();
  await server.connect(side);
  const answer = new Promise<JSONRPCMessage>((resolve) => (client.onmessage = resolve));
  await client.start();
  await client.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name: "t", version: "1" } },
  } as JSONRPCMessage);
  const message = await answer;
  await server.close();
  return "result" in message ? message.result : message;
}

/** tools/list as the zod schemas give it now (listEntry: toJsonSchema per tool), for these settings. */
export function liveToolList(settings: ServerSettings): { tools: unknown[] } {
  return { tools: offeredTools(settings.readOnly).map((tool) => listEntry(tool, { mode: settings.payloadMode, compact: settings.compact })) };
}
