import { z } from "zod";
import type { PayloadMode } from "../core/config.ts";
import type { ArtifactStore } from "../service/history/artifacts.ts";
import type { CheckEvent } from "../service/check/check-events.ts";
import type { SignalintService } from "../service/signalint.ts";

/** What a tool handler returns; the payload layer turns it into a CallToolResult for the active mode. */
export interface ToolOutput {
  /** The structuredContent value (already in compact form when compact is on). */
  structured: Record<string, unknown>;
  /** The value text mode serializes, when it differs from `structured` (detail: a bare array). */
  textValue?: unknown;
  /** A literal first text block in every mode (ping's "pong"). */
  literalText?: string;
  /** The short human summary added as a second block in structured mode. */
  summary: string;
}

/** Server-wide facts a handler may need. */
export interface ToolContext {
  service: SignalintService;
  artifacts: ArtifactStore;
  mode: PayloadMode;
  compact: boolean;
  structuredMaxBytes: number;
  /** The request's cancellation (notifications/cancelled), when it came from a client. */
  signal?: AbortSignal;
  /** Where a check reports its progress, when the request asked for it (a progressToken). */
  onEvent?: (event: CheckEvent) => void;
}

/** A tool declared schema-first: input and output schemas are the zod contracts the code uses. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  /** The advertised output contract (size-bound form), given the compact setting. */
  output: (compact: boolean) => z.ZodType;
  /** Fields that become null when the value exceeds structuredMaxBytes. */
  dataFields?: (compact: boolean) => string[];
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
  handle: (args: never, context: ToolContext) => Promise<ToolOutput>;
}

/** Annotations of a tool that reads the project and writes only Signalint's own state directory. */
export const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** Declare a tool with its argument type inferred from the input schema. */
export function defineTool<S extends z.ZodType>(
  tool: Omit<ToolDefinition, "input" | "handle"> & { input: S; handle: (args: z.infer<S>, context: ToolContext) => Promise<ToolOutput> },
): ToolDefinition {
  return tool as unknown as ToolDefinition;
}

/** Keywords that describe a schema rather than constrain it: they stay on a node whose `type` array is split. */
const ANNOTATIONS = new Set(["description", "title", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly"]);

/**
 * Rewrite every `type: [a, b]` (zod's spelling of a nullable string, number or boolean) as `anyOf` branches with one
 * `type` each: legal either way, but single-type dialects (Gemini's OpenAPI subset, MCP Inspector's portability
 * check) reject or warn about type arrays. Also drops zod's default safe-integer bounds.
 */
export function singleTypes(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(singleTypes);
  if (typeof node !== "object" || node === null) return node;
  const entries = Object.entries(node).map(
    ([key, value]) => [key, key === "properties" || key === "definitions" || key === "$defs" ? mapValues(value) : singleTypes(value)] as const,
  );
  const rewritten = Object.fromEntries(entries) as Record<string, unknown>;
  // zod bounds every int by ±Number.MAX_SAFE_INTEGER: no information, ~26 bytes each (146 of them in tools/list).
  if (rewritten.maximum === Number.MAX_SAFE_INTEGER) delete rewritten.maximum;
  if (rewritten.minimum === Number.MIN_SAFE_INTEGER) delete rewritten.minimum;
  if (!Array.isArray(rewritten.type)) return rewritten;
  const kept: Record<string, unknown> = {};
  const constraints: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rewritten)) {
    if (key === "type") continue;
    (ANNOTATIONS.has(key) ? kept : constraints)[key] = value;
  }
  const branches = (rewritten.type as string[]).map((type) => (type === "null" ? { type } : { type, ...constraints }));
  return { ...kept, anyOf: branches };
}

function mapValues(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, singleTypes(inner)]));
}

/** JSON Schema (draft-07, as the SDK's Ajv validates) for a zod contract; the root is always type "object". */
export function toJsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const { $schema: _ignored, ...raw } = z.toJSONSchema(schema, { target: "draft-07", io, unrepresentable: "any" }) as Record<string, unknown>;
  const json = singleTypes(raw) as Record<string, unknown>;
  return json.type === "object" ? json : { type: "object", ...json };
}
