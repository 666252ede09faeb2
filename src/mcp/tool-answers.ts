import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ServerSettings } from "../core/server-settings.ts";

// initialize's and tools/list's answers from the catalog the build prepared (build/bundle.mjs runs mcp/tool-catalog.ts
// and embeds it): no zod and no SDK here, so the stdio front (cli/front.ts) answers both before either is loaded. The
// catalog holds JSON text in pieces, so an answer is joined, never parsed or serialized: the front's answer is the
// JSON the SDK server would write (JSON.stringify of the same object, keys in the same order).

/** A tool's tools/list entry as JSON text in pieces, with both output schemas, and whether it writes files. */
export interface CatalogTool {
  /** The entry's JSON up to its output schema: `{"name":…,"title":…,"description":…,"inputSchema":…` (no closing brace). */
  head: string;
  /** The output schema's JSON, with full and with compact keys. */
  outputSchema: { full: string; compact: string };
  /** The entry's JSON after its output schema: `,"annotations":…}`, or `}`. */
  tail: string;
  /** One of WRITING_TOOLS: a read-only server neither lists nor serves it. */
  writes: boolean;
}

/** Everything initialize and tools/list answer, as the zod schemas and the SDK's Server gave it at build time. */
export interface ToolCatalog {
  /** The SDK's protocol versions: the client's requested one when supported, else the latest (the SDK's negotiation). */
  protocol: { latest: string; supported: string[] };
  /** initialize's result after `protocolVersion` as JSON text (`,"capabilities":…}`), for a writing and a read-only server. */
  initialize: { writing: string; readOnly: string };
  tools: CatalogTool[];
}

// Replaced by build/bundle.mjs (esbuild `define`) with the catalog as an object literal; absent from the tests' builds.
declare const __signalintToolCatalog: ToolCatalog | undefined;

let embedded: ToolCatalog | null | undefined;

/** The catalog the build embedded, or null in a build without one (the tests' in-process servers compute it live). */
export function embeddedCatalog(): ToolCatalog | null {
  // The one place that names the build's literal (esbuild copies a defined object to each place that names it).
  embedded ??= typeof __signalintToolCatalog === "object" ? __signalintToolCatalog : null;
  return embedded;
}

/** `{"a":…}` as the rest of an object after an earlier key: `,"a":…}` (`}` for `{}`). */
export function jsonAfterKey(json: string): string {
  return json === "{}" ? "}" : `,${json.slice(1)}`;
}

/** A tool's catalog entry from its tools/list entry without an output schema and its two output schemas. */
export function catalogTool(entry: Omit<Tool, "outputSchema">, outputSchema: CatalogTool["outputSchema"], writes: boolean): CatalogTool {
  const { name, title, description, inputSchema, annotations, ...rest } = entry;
  // Listed in the order listEntry (mcp/server.ts) writes them: the SDK server serializes that object.
  if (Object.keys(rest).length) throw new Error(`tools/list entry of ${name} has keys the catalog does not place: ${Object.keys(rest).join(", ")}`);
  const head = JSON.stringify({ name, title, description, inputSchema });
  return { head: head.slice(0, -1), outputSchema, tail: jsonAfterKey(JSON.stringify({ annotations })), writes };
}

/** tools/list's result as JSON for these settings: the writing tools left out when read-only, no output schema in text mode. */
export function toolListJson(tools: readonly CatalogTool[], settings: ServerSettings): string {
  const entries = tools
    .filter((tool) => !(settings.readOnly && tool.writes))
    .map((tool) =>
      settings.payloadMode === "text"
        ? tool.head + tool.tail
        : `${tool.head},"outputSchema":${settings.compact ? tool.outputSchema.compact : tool.outputSchema.full}${tool.tail}`,
    );
  return `{"tools":[${entries.join(",")}]}`;
}

/** initialize's result as JSON for a client that asked for `requested`: its version when the SDK supports it, else the latest. */
export function initializeJson(catalog: ToolCatalog, readOnly: boolean, requested: unknown): string {
  const protocolVersion = catalog.protocol.supported.includes(requested as string) ? (requested as string) : catalog.protocol.latest;
  return `{"protocolVersion":${JSON.stringify(protocolVersion)}${readOnly ? catalog.initialize.readOnly : catalog.initialize.writing}`;
}
