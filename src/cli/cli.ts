import { isAbsolute } from "node:path";
import { parseArgs } from "node:util";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { argumentGuard } from "../mcp/argument-guard.ts";
import { compactCheckResponse } from "../core/response.ts";
import { quoteInput, SignalintError } from "../core/errors.ts";
import { publicIssue } from "../core/issues.ts";
import { relativeToRoot } from "../core/paths.ts";
import { createMcpServer } from "../mcp/server.ts";
import { diagnose, formatDoctor } from "../service/doctor.ts";
import { openProject } from "../service/project.ts";
import { collectStats, formatStats } from "../service/stats.ts";
import { SignalintService } from "../service/signalint.ts";
import type { Runtime } from "../runtime/types.ts";
import { VERSION } from "../version.ts";
import { watchClientPipes } from "./client-pipes.ts";
import { formatGithub, formatJson, formatText } from "./format.ts";

/** Usage text for --help and a bare invocation on a terminal. */
export const HELP = `signalint-mcp ${VERSION} — fresh, compact JS/TS diagnostics for AI coding agents (MCP over stdio)

Usage:
  signalint-mcp                      start the MCP server on stdio (when stdin is not a terminal)
  signalint-mcp serve                start the MCP server on stdio
  signalint-mcp check [paths…]       check the project (default ".") and print the result
      --format text|json|github      output format (default text)
      --compact                      compact JSON keys (json format)
      --root DIR                     project root (default: SIGNALINT_PROJECT_ROOT, else the nearest directory at or
                                     above the working directory with signalint.config.json, else with package.json
                                     or .git); paths are relative to the working directory (default: it)
  signalint-mcp doctor [--json] [--root DIR]
                                     show config resolution, payload mode and how each engine resolves
  signalint-mcp stats [--json] [--root DIR]
                                     checks run, cache hits/misses per engine, cache and artifact sizes
  signalint-mcp --version | --help

Exit codes (check): 0 clean, 1 issues found or engines failed, 2 usage or configuration error.
Environment: SIGNALINT_PROJECT_ROOT, SIGNALINT_STATE_DIR, SIGNALINT_CACHE_DIR, SIGNALINT_MCP_PAYLOAD, SIGNALINT_COMPACT,
SIGNALINT_STRUCTURED_MAX_BYTES.
`;

/** Thrown for bad command lines; exit code 2. */
export class UsageError extends SignalintError {
  constructor(message: string) {
    super("usage", message);
  }
}

/** What the shell needs to act on a command: write to stdout, and the exit code (null: keep running). */
interface CliIo {
  runtime: Runtime;
  stdout: (text: string) => void;
  stdinIsTty: boolean;
  /** End the process now: a server whose client is gone must not be kept alive by anything still pending. */
  exit: (code: number) => void;
}

/**
 * CLI paths are relative to the working directory when it is inside the project root (no paths: the working
 * directory itself); from outside it (e.g. --root elsewhere) they are relative to the root (no paths: the root).
 */
function cliPaths(runtime: Runtime, project: { root: string; realRoot: string }, positionals: string[]): string[] {
  const cwd = runtime.cwd();
  const base = relativeToRoot(project.root, cwd) ?? relativeToRoot(project.realRoot, cwd);
  if (base === null) return positionals.length ? positionals : ["."];
  if (!positionals.length) return [base];
  return positionals.map((path) => (base === "." || isAbsolute(path) || /^[A-Za-z]:/.test(path) ? path : `${base}/${path}`));
}

async function runCheck(io: CliIo, argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { format: { type: "string", default: "text" }, compact: { type: "boolean", default: false }, root: { type: "string" } },
  });
  const format = values.format as string;
  if (!["text", "json", "github"].includes(format)) throw new UsageError(`--format must be text, json or github, not ${quoteInput(format)}`);
  const service = await SignalintService.create(io.runtime, { root: values.root, compact: values.compact });
  const response = await service.check(cliPaths(io.runtime, service.project, positionals), false).finally(() => service.close());
  const issues = service.store.latest()?.issues.map(publicIssue) ?? [];
  if (format === "json") io.stdout(formatJson(service.project.settings.compact ? compactCheckResponse(response) : response));
  else if (format === "github") io.stdout(formatGithub(response, issues));
  else io.stdout(formatText(response, issues));
  return response.status === "clean" ? 0 : 1;
}

async function runDoctor(io: CliIo, argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: "boolean", default: false }, root: { type: "string" } } });
  const service = await SignalintService.create(io.runtime, { root: values.root, prepareState: false });
  const report = await diagnose(service);
  io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctor(report));
  return 0;
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
  const service = await SignalintService.create(io.runtime);
  const server = createMcpServer(service);
  const client = watchClientPipes();
  // The argument guard sees raw request lines, where a `__proto__` key is still visible (see mcp/argument-guard.ts).
  await server.connect(new StdioServerTransport(client.stdin.pipe(argumentGuard()), client.stdout));
  io.runtime.writeStderr(
    `signalint-mcp ${VERSION}: serving ${service.project.root} on stdio (payload ${service.project.settings.payloadMode}${service.project.settings.compact ? ", compact" : ""})\n`,
  );
  const reason = await client.gone;
  io.runtime.writeStderr(`signalint-mcp: ${reason}; stopping\n`);
  // Closing the server aborts every request in flight (their engines are killed through the abort signal).
  await server.close().catch(() => {});
  io.runtime.killSpawned();
  service.close();
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
    if (verb === "serve") return await serve(io);
    if (verb === "check") return await runCheck(io, rest);
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
