import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";
import { quoteInput, SignalintError } from "../core/errors.ts";
import type { Settings } from "../core/config.ts";
import type { ServiceApi } from "../service/api.ts";
import { VERSION } from "../version.ts";
import { REFUSED_KEY_META, refusedArguments } from "./argument-guard.ts";
import { toJsonSchema } from "./json-schema.ts";
import { toErrorResult } from "./respond.ts";
import { type CatalogTool, catalogTool, embeddedCatalog, toolListJson } from "./tool-answers.ts";
import type { ToolContext, ToolDefinition } from "./tool.ts";
import { checkFilesTool, checkProjectTool } from "./tools/check.ts";
import { issueDetailTool } from "./tools/detail.ts";
import { loopStatusTool } from "./tools/loop-status.ts";
import { pingTool } from "./tools/ping.ts";
import { artifactReadTool } from "./tools/artifact-read.ts";
import { diagnosticSnapshotTool } from "./tools/diagnostic-snapshot.ts";
import { compareDiagnosticsTool } from "./tools/compare-diagnostics.ts";
import { afterEditCheckTool } from "./tools/after-edit-check.ts";
import { ingestDiagnosticsTool } from "./tools/ingest-diagnostics.ts";
import { liveDiagnosticsTool } from "./tools/live-diagnostics.ts";
import { previewFixTool } from "./tools/preview-fix.ts";
import { applyFixTool } from "./tools/apply-fix.ts";
import { discardFixTool } from "./tools/discard-fix.ts";
import { progressReporter } from "./progress.ts";

/** Every tool the server offers, in tools/list order. */
export const TOOLS: readonly ToolDefinition[] = [
  pingTool,
  checkProjectTool,
  checkFilesTool,
  issueDetailTool,
  loopStatusTool,
  artifactReadTool,
  diagnosticSnapshotTool,
  compareDiagnosticsTool,
  afterEditCheckTool,
  ingestDiagnosticsTool,
  liveDiagnosticsTool,
  previewFixTool,
  applyFixTool,
  discardFixTool,
];

/**
 * The tools a read-only server neither lists nor serves: apply writes the project's files, and preview and discard
 * exist only for it (a preview would prepare a write no call could make).
 */
export const WRITING_TOOLS: ReadonlySet<string> = new Set([previewFixTool.name, applyFixTool.name, discardFixTool.name]);

/** The tools a server offers: every tool, less the writing ones when it is read-only. */
export function offeredTools(readOnly: boolean): readonly ToolDefinition[] {
  return readOnly ? TOOLS.filter((tool) => !WRITING_TOOLS.has(tool.name)) : TOOLS;
}

/** The tools/list entry of a tool; output schemas are omitted in text mode. */
export function listEntry(tool: ToolDefinition, context: Pick<ToolContext, "mode" | "compact">): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: toJsonSchema(tool.input, "input") as Tool["inputSchema"],
    ...(context.mode === "text" ? {} : { outputSchema: toJsonSchema(tool.output(context.compact), "output") as Tool["outputSchema"] }),
    annotations: tool.annotations,
  };
}

/** A tool's catalog entry (mcp/tool-answers.ts): its tools/list entry with both output schemas, computed from its zod schemas. */
export function catalogEntry(tool: ToolDefinition): CatalogTool {
  const outputSchema = (compact: boolean) => JSON.stringify(toJsonSchema(tool.output(compact), "output"));
  return catalogTool(
    listEntry(tool, { mode: "text", compact: false }),
    { full: outputSchema(false), compact: outputSchema(true) },
    WRITING_TOOLS.has(tool.name),
  );
}

/**
 * Run one tool call; every failure becomes an isError result, never a thrown error. `refusedKey` is why the argument
 * guard refused the raw arguments (the SDK's parsing drops `__proto__` before it gets here; deep ones it replaced).
 */
export async function callTool(context: ToolContext, name: string, args: unknown, refusedKey?: unknown): Promise<CallToolResult> {
  // What the guard refused is said first: a call whose params were not an object has no tool name.
  if (typeof refusedKey === "string") return toErrorResult("invalid_arguments", name ? `${name}: ${refusedKey}` : refusedKey);
  if (context.readOnly && WRITING_TOOLS.has(name)) {
    return toErrorResult(
      "read_only",
      `${name} is not offered: this server is read-only (readOnly in signalint.config.json, --read-only or SIGNALINT_READ_ONLY) and writes no project file`,
    );
  }
  const tools = offeredTools(context.readOnly === true);
  const tool = tools.find((candidate) => candidate.name === name);
  if (!tool) return toErrorResult("unknown_tool", `Unknown tool ${quoteInput(name)}; available: ${tools.map((t) => t.name).join(", ")}`);
  const refused = refusedArguments(args);
  if (refused) return toErrorResult("invalid_arguments", `${name}: ${refused}`);
  try {
    return await tool.call(args, context);
  } catch (error) {
    if (error instanceof SignalintError) return toErrorResult(error.code, error.message);
    const message = error instanceof Error ? error.message : String(error);
    context.log(`signalint: ${name} failed: ${error instanceof Error ? error.stack : message}\n`);
    return toErrorResult("internal_error", `${name} failed: ${message}`);
  }
}

/** What the MCP front serves: the project's service (daemon or in-process), its root and settings, and a log. */
export interface McpFront {
  api: ServiceApi;
  projectRoot: string;
  settings: Settings;
  log: (text: string) => void;
}

/** What the server tells agents at `initialize`: the check loop, and the fix tools unless it is read-only. */
function instructions(readOnly: boolean): string {
  return (
    "Call check_project once, then check_files after each edit. Drill into clusters with get_issue_detail. " +
    "The fix loop: check (keep its checkId, a snapshot) → edit → after_edit_check {files} → read its delta (introduced/resolved); " +
    "compare_diagnostics compares any two checkIds; ingest_diagnostics takes your editor's LSP diagnostics and get_live_diagnostics merges both views. " +
    (readOnly
      ? "This server is read-only: it offers no tool that writes files; make the edits yourself."
      : "Multi-file fixes: preview_diagnostic_fix → apply_diagnostic_fix {transactionId, confirm: true} writes all files or none and returns the post-check and delta.")
  );
}

/** The SDK server with Signalint's identity, capabilities and instructions, before any handler but initialize's. */
export function sdkServer(readOnly: boolean): Server {
  return new Server({ name: "signalint", version: VERSION }, { capabilities: { tools: {} }, instructions: instructions(readOnly) });
}

/** Build the MCP server; the payload mode and compact setting are captured here, once. */
export function createMcpServer(front: McpFront): Server {
  const { payloadMode: mode, compact, structuredMaxBytes, readOnly } = front.settings;
  const { api, projectRoot, log } = front;
  const artifacts = { save: (json: string) => api.saveArtifact({ json }) };
  const context: ToolContext = { api, projectRoot, artifacts, log, mode, compact, structuredMaxBytes, readOnly };
  const server = sdkServer(readOnly);
  // The catalog the build prepared from the zod schemas (a test keeps it equal to listEntry's); computed from them
  // at the first tools/list in a build without one.
  let tools: { tools: Tool[] } | undefined;
  const heartbeat = front.settings.progressHeartbeatMs;
  server.setRequestHandler(
    ListToolsRequestSchema,
    async () => (tools ??= JSON.parse(toolListJson(embeddedCatalog()?.tools ?? TOOLS.map(catalogEntry), front.settings)) as { tools: Tool[] }),
  );
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // notifications/cancelled aborts extra.signal: the check kills its engines and throws, and the SDK sends nothing.
    const token = request.params._meta?.progressToken;
    const progress =
      token === undefined ? null : progressReporter(token, (params) => extra.sendNotification({ method: "notifications/progress", params }), heartbeat);
    try {
      return await callTool(
        { ...context, signal: extra.signal, onEvent: progress?.onEvent },
        request.params.name,
        request.params.arguments,
        request.params._meta?.[REFUSED_KEY_META],
      );
    } finally {
      await progress?.flush();
    }
  });
  return server;
}
