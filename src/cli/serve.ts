import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { argumentGuard } from "../mcp/argument-guard.ts";
import { createMcpServer } from "../mcp/server.ts";
import { deferredApi, openApi } from "../client/open.ts";
import { openProject } from "../service/project/project.ts";
import { VERSION } from "../version.ts";
import { watchClientPipes } from "./client-pipes.ts";
import { defineCommand } from "./command.ts";
import type { StdioFront } from "./front.ts";
import { replayingTransport } from "./front-transport.ts";
import type { CliIo } from "./io.ts";

/**
 * Serve until the client is gone (stdin closed, or stdout failed), then stop: running checks are aborted, every
 * engine process group still alive is killed, warm TypeScript processes are stopped, and the process exits.
 */
export async function serve(io: CliIo, options: { readOnly?: boolean; front?: StdioFront | null } = {}): Promise<number | null> {
  // Each MCP connection is one session: after_edit_check's default baseline is this session's previous check.
  const session = `mcp-${io.runtime.sha256(`${io.runtime.pid}:${Date.now()}:${Math.random()}`).slice(0, 12)}`;
  const readOnly = options.readOnly ? { readOnly: true } : {};
  // The project and its settings are read here; the daemon (reached, or started: seconds) is awaited only by tool calls,
  // so initialize and tools/list are answered at once.
  const project = await openProject(io.runtime, readOnly);
  // A server lives on: it builds the last checks' programs while its client has not asked yet.
  const pending = openApi(io.runtime, { session, prewarm: true, ...readOnly }, project);
  pending.catch(() => {}); // awaited below: a failure to open ends the server there
  const { settings, root: projectRoot } = project;
  const log = (text: string) => io.runtime.writeStderr(text);
  const server = createMcpServer({ api: deferredApi(pending), projectRoot, settings, log });
  const { front } = options;
  const client = front?.pipes ?? watchClientPipes();
  // The argument guard sees raw request lines, where a `__proto__` key is still visible (see mcp/argument-guard.ts).
  const transport = new StdioServerTransport((front ? front.handOff() : client.stdin).pipe(argumentGuard()), client.stdout);
  await server.connect(front ? replayingTransport(transport, front.replays, log) : transport);
  const opened = await pending;
  if (opened.notice) io.runtime.writeStderr(`${opened.notice}\n`);
  io.runtime.writeStderr(
    `signalint-mcp ${VERSION}: serving ${projectRoot} on stdio (payload ${settings.payloadMode}${settings.compact ? ", compact" : ""}${settings.readOnly ? ", read-only" : ""}; ${opened.mode === "daemon" ? "through the project's daemon" : "in this process"})\n`,
  );
  const reason = await client.gone;
  io.runtime.writeStderr(`signalint-mcp: ${reason}; stopping\n`);
  // Closing the server aborts every request in flight (their engines are killed through the abort signal).
  await server.close().catch(() => {});
  io.runtime.killSpawned();
  await opened.close();
  io.exit(0);
  return null;
}

/** The serve verb (also what a bare signalint-mcp does when stdin is not a terminal). */
export const serveCommand = defineCommand({
  name: "serve",
  summary: "start the MCP server on stdio",
  description:
    "Start the MCP server on stdio (also what a bare signalint-mcp does when stdin is not a terminal). The project is " +
    "SIGNALINT_PROJECT_ROOT, else the one the working directory is in.",
  options: {
    "read-only": {
      type: "boolean",
      help: "offer no tool that writes the project's files (the fix tools preview, apply and discard); also readOnly in signalint.config.json or SIGNALINT_READ_ONLY=1",
    },
  },
  run: (io, values) => serve(io, { readOnly: values["read-only"], front: io.front }),
});
