import { parseArgs } from "node:util";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { argumentGuard } from "../mcp/argument-guard.ts";
import { quoteInput, SignalintError } from "../core/errors.ts";
import { openApi } from "../client/open.ts";
import { createMcpServer } from "../mcp/server.ts";
import { diagnose, formatDoctor } from "../service/project/doctor.ts";
import { openProject } from "../service/project/project.ts";
import { collectStats, formatStats } from "../service/history/stats.ts";
import { SignalintService } from "../service/signalint.ts";
import type { Runtime } from "../runtime/types.ts";
import type { CliIo } from "./io.ts";
import { VERSION } from "../version.ts";
import { watchClientPipes } from "./client-pipes.ts";
import { runCheck } from "./check.ts";
import { HELP, VERB_HELP } from "./help.ts";
import { runHook } from "./hook.ts";
import { runInit } from "./init.ts";
import { UsageError } from "./usage.ts";

async function runDoctor(io: CliIo, argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: "boolean", default: false }, root: { type: "string" } } });
  const configErrors: string[] = [];
  const service = await SignalintService.create(io.runtime, { root: values.root, prepareState: false, onConfigError: (message) => configErrors.push(message) });
  const report = await diagnose(service, configErrors);
  io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctor(report));
  return report.configErrors.length ? 1 : 0;
}

async function runStats(io: CliIo, argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: "boolean", default: false }, root: { type: "string" } } });
  const project = await openProject(io.runtime, { root: values.root });
  const report = await collectStats(io.runtime, project.stateDir);
  io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatStats(report));
  return 0;
}

/** A long-lived server reports a stray error from a background task on stderr instead of dying with it. */
function keepServingOnStrayErrors(runtime: Runtime): void {
  const report = (error: unknown) =>
    runtime.writeStderr(`signalint: unexpected error (server keeps running): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  if ("Deno" in globalThis) {
    type StrayEvent = { preventDefault(): void; reason?: unknown; error?: unknown };
    const target = globalThis as unknown as { addEventListener(type: string, listener: (event: StrayEvent) => void): void };
    target.addEventListener("unhandledrejection", (event) => {
      event.preventDefault();
      report(event.reason);
    });
    target.addEventListener("error", (event) => {
      event.preventDefault();
      report(event.error);
    });
    return;
  }
  process.on("uncaughtException", report);
  process.on("unhandledRejection", report);
}

/**
 * Serve until the client is gone (stdin closed, or stdout failed), then stop: running checks are aborted, every
 * engine process group still alive is killed, warm TypeScript processes are stopped, and the process exits.
 */
async function serve(io: CliIo): Promise<number | null> {
  keepServingOnStrayErrors(io.runtime);
  // Each MCP connection is one session: after_edit_check's default baseline is this session's previous check.
  const opened = await openApi(io.runtime, { session: `mcp-${io.runtime.sha256(`${io.runtime.pid}:${Date.now()}:${Math.random()}`).slice(0, 12)}` });
  if (opened.notice) io.runtime.writeStderr(`${opened.notice}\n`);
  const { settings, projectRoot } = opened;
  const server = createMcpServer({ api: opened.api, projectRoot, settings, log: (text) => io.runtime.writeStderr(text) });
  const client = watchClientPipes();
  // The argument guard sees raw request lines, where a `__proto__` key is still visible (see mcp/argument-guard.ts).
  await server.connect(new StdioServerTransport(client.stdin.pipe(argumentGuard()), client.stdout));
  io.runtime.writeStderr(
    `signalint-mcp ${VERSION}: serving ${projectRoot} on stdio (payload ${settings.payloadMode}${settings.compact ? ", compact" : ""}; ${opened.mode === "daemon" ? "through the project's daemon" : "in this process"})\n`,
  );
  const reason = await client.gone;
  io.runtime.writeStderr(`signalint-mcp: ${reason}; stopping\n`);
  // Closing the server aborts every request in flight (their engines are killed through the abort signal).
  await server.close().catch(() => {});
  io.runtime.killSpawned();
  opened.close();
  io.exit(0);
  return null;
}

/** Dispatch a command line. Returns the exit code, or null when a server keeps running. */
export async function runCli(io: CliIo, argv: string[]): Promise<number | null> {
  const [verb, ...rest] = argv;
  try {
    if (verb === "--version" || verb === "-v") {
      io.stdout(`${VERSION}\n`);
      return 0;
    }
    if (verb === "--help" || verb === "-h" || verb === "help") {
      io.stdout(HELP);
      return 0;
    }
    if (verb === undefined) {
      if (io.stdinIsTty) {
        io.stdout(HELP);
        return 0;
      }
      return await serve(io);
    }
    if (rest.includes("--help") || rest.includes("-h")) {
      const help = VERB_HELP[verb];
      if (!help) throw new UsageError(`unknown command ${quoteInput(verb)}; see signalint-mcp --help`);
      io.stdout(help);
      return 0;
    }
    if (verb === "serve") return await serve(io);
    if (verb === "check") return await runCheck(io, rest);
    if (verb === "init") return await runInit(io, rest);
    if (verb === "hook") return await runHook(io, rest);
    if (verb === "doctor") return await runDoctor(io, rest);
    if (verb === "stats") return await runStats(io, rest);
    throw new UsageError(`unknown command ${quoteInput(verb)}; see signalint-mcp --help`);
  } catch (error) {
    if (error instanceof SignalintError) {
      io.runtime.writeStderr(`signalint-mcp: ${error.message}\n`);
      return 2;
    }
    if (error instanceof Error && "code" in error && String(error.code).startsWith("ERR_PARSE_ARGS")) {
      io.runtime.writeStderr(`signalint-mcp: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
