import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ServerSettings } from "../core/server-settings.ts";

// initialize's and tools/list's answers from the catalog the build prepared (build/bundle.mjs runs mcp/tool-catalog.ts
// and embeds its JSON): no zod and no SDK here, so the stdio front (cli/front.ts) answers both before either is loaded.

/** A tool as tools/list gives it, with both output schemas (full and compact keys) and whether it writes files. */
export interface CatalogTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Tool["inputSchema"];
  outputSchema: { full: NonNullable<Tool["outputSchema"]>; compact: NonNullable<Tool["outputSchema"]> };
  annotations: Tool["annotations"];
  /** One of WRITING_TOOLS: a read-only server neither lists nor serves it. */
  writes: boolean;
}

/** Everything initialize and tools/list answer, as the zod schemas and the SDK's Server gave it at build time. */
export interface ToolCatalog {
  /** The SDK's protocol versions: the client's requested one when supported, else the latest (the SDK's negotiation). */
  protocol: { latest: string; supported: string[] };
  /** initialize's result after `protocolVersion`, as the SDK's Server gives it, for a writing and a read-only server. */
  initialize: { writing: Record<string, unknown>; readOnly: Record<string, unknown> };
  tools: CatalogTool[];
}

// Replaced by build/bundle.mjs (esbuild `define`) with the catalog's JSON text; absent from the tests' own builds.
declare const __signalintToolCatalog: string | undefined;

let embedded: ToolCatalog | null | undefined;

/** Whether the build embedded a catalog (nothing is parsed). */
export function hasEmbeddedCatalog(): boolean {
  return typeof __signalintToolCatalog === "string";
}

/** The catalog the build embedded, or null in a build without one (the tests' in-process servers compute it live). */
export function embeddedCatalog(): ToolCatalog | null {
  embedded ??= typeof __signalintToolCatalog === "string" ? (JSON.parse(__signalintToolCatalog) as ToolCatalog) : null;
  return embedded;
}

/** tools/list's result for these settings: the writing tools left out when read-only, no output schema in text mode. */
export function toolListResult(tools: readonly CatalogTool[], settings: ServerSettings): { tools: Tool[] } {
  return {
    tools: tools
      .filter((tool) => !(settings.readOnly && tool.writes))
      .map((tool) => ({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        ...(settings.payloadMode === "text" ? {} : { outputSchema: settings.compact ? tool.outputSchema.compact : tool.outputSchema.full }),
        annotations: tool.annotations,
      })),
  };
}

/** initialize's result for a client that asked for `requested`: its version when the SDK supports it, else the latest. */
export function initializeResult(catalog: ToolCatalog, readOnly: boolean, requested: unknown): Record<string, unknown> {
  const protocolVersion = catalog.protocol.supported.includes(requested as string) ? requested : catalog.protocol.latest;
  return { protocolVersion, ...(readOnly ? catalog.initialize.readOnly : catalog.initialize.writing) };
}
