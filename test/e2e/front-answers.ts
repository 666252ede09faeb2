import { spawn } from "node:child_process";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ServerSettings } from "../../src/core/server-settings.ts";
import { listEntry, offeredTools, sdkServer } from "../../src/mcp/server.ts";
import { BUNDLE, CLEAN_PATH, removeDir, STATE_HOME, tempDir } from "../helpers.ts";

// The answers the stdio front must give, as the SDK and the zod schemas give them now, and the bundle on raw stdio
// (tool-catalog, stdio-front and front-requests tests).

export type Message = { id?: unknown; method?: string; params?: Record<string, unknown>; result?: Record<string, unknown> };

/**
 * The bundle on raw stdio: `send` writes messages (`sendLine` one line as it is); `answer(id)` resolves with the raw
 * response line of that id; `exited` with the exit code and stderr. A line-level view, so a test sees the bytes a
 * client reads.
 */
export function rawServer(cwd: string, env: Record<string, string> = {}, args: string[] = []) {
  const state = tempDir("signalint-front-state-");
  const child = spawn(process.execPath, [BUNDLE, ...args], {
    cwd,
    env: {
      PATH: CLEAN_PATH,
      HOME: process.env.HOME ?? "",
      XDG_STATE_HOME: STATE_HOME,
      SIGNALINT_DAEMON: "0",
      SIGNALINT_STATE_DIR: state,
      SIGNALINT_PREWARM_DELAY_MS: "off",
      ...env,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const waiters = new Map<unknown, (line: string) => void>();
  let buffer = "";
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
      const line = buffer.slice(0, end);
      buffer = buffer.slice(end + 1);
      lines.push(line);
      waiters.get((JSON.parse(line) as Message).id)?.(line);
    }
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on("close", (code) => resolve({ code, stderr })));
  return {
    lines,
    send: (...messages: object[]) => child.stdin.write(messages.map((message) => `${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`).join("")),
    sendLine: (line: string) => child.stdin.write(`${line}\n`),
    answer: (id: unknown) => new Promise<string>((resolve) => waiters.set(id, resolve)),
    end: () => child.stdin.end(),
    exited: exited.finally(() => removeDir(state)),
  };
}

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
