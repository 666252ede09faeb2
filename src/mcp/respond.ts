import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { PayloadMode } from "../core/config.ts";
import { withSizeBound, type ErrorEnvelope, type Incomplete, type Stale, type WorkflowStale } from "../core/contracts.ts";
import { keyIn } from "../core/response.ts";

/** How one tool's successful answer is presented; the builder below does the rest for every tool alike. */
export interface ResultShape<T> {
  /** The answer's contract, in full keys or (compact) in compact keys. */
  schema: (compact: boolean) => z.ZodObject;
  /** The answer as structuredContent carries it, in the active key style. */
  wire: (value: T, compact: boolean) => Record<string, unknown>;
  /** Data-bearing fields (full-key names) that become null over the size bound; without them, never bounded. */
  dataFields?: readonly string[];
  /** What text mode serializes when it differs from the wire value (detail: the bare issue array). */
  text?: (value: T) => unknown;
  /** A literal first text block in every mode (ping's "pong"). */
  literalText?: string;
  /** The short human summary structured mode adds for the user; it reads the full-key answer. */
  summary: (value: T) => string;
}

/** What the builder needs of the server: the payload settings, and where an oversized value goes. */
export interface PresentContext {
  mode: PayloadMode;
  compact: boolean;
  structuredMaxBytes: number;
  artifacts: { save: (json: string) => Promise<string> };
}

/** A result shape whose answer is already its wire value, in one key style. */
export function plainShape<S extends z.ZodObject>(schema: S, options: Omit<ResultShape<z.output<S>>, "schema" | "wire">): ResultShape<z.output<S>> {
  return { schema: () => schema, wire: (value) => ({ ...value }), ...options };
}

/** The advertised output schema of a tool: its shape, nullable data fields plus `incomplete`, or the stale answer. */
export function advertisedSchema<T>(shape: ResultShape<T>, compact: boolean, stale?: z.ZodType): z.ZodType {
  const schema = shape.schema(compact);
  const bounded = shape.dataFields
    ? withSizeBound(
        schema,
        shape.dataFields.map((field) => keyIn(field, compact)),
      )
    : schema;
  return stale ? z.union([bounded, stale]) : bounded;
}

function isStale(value: unknown): value is Stale | WorkflowStale {
  return typeof value === "object" && value !== null && "status" in value && value.status === "stale";
}

/**
 * Present a tool's answer for the payload mode (spec 000): `both` → JSON text + structuredContent; `text` → minified
 * JSON only; `structured` → as both plus a human summary for the user. Ping's literal text stays first in every mode.
 * In the bounded modes a value over structuredMaxBytes is never clipped: see `boundValue`.
 */
export async function respond<T>(shape: ResultShape<T>, answer: T | Stale | WorkflowStale, context: PresentContext): Promise<CallToolResult> {
  if (isStale(answer)) return present({ structured: answer, text: answer, summary: answer.message }, context.mode);
  const wire = shape.wire(answer, context.compact);
  const text = shape.text ? shape.text(answer) : wire;
  const summary = shape.summary(answer);
  if (context.mode === "text" || !shape.dataFields) return present({ structured: wire, text, summary, literalText: shape.literalText }, context.mode);
  const fields = shape.dataFields.map((field) => keyIn(field, context.compact));
  const bounded = await boundValue(wire, fields, context);
  const note = bounded.incomplete
    ? `\n(Full result is ${bounded.incomplete.bytes} bytes, over the ${bounded.incomplete.limitBytes}-byte bound: read it with artifact_read {"artifactId":"${bounded.incomplete.artifactId}"}.)`
    : "";
  return present({ structured: bounded.value, text: bounded.value, summary: summary + note, literalText: shape.literalText }, context.mode);
}

interface Presented {
  structured: Record<string, unknown>;
  text: unknown;
  summary: string;
  literalText?: string;
}

function present(output: Presented, mode: PayloadMode): CallToolResult {
  const text = output.literalText ?? JSON.stringify(mode === "text" ? output.text : output.structured);
  if (mode === "text") return { content: [{ type: "text", text }] };
  const content: CallToolResult["content"] = [{ type: "text", text }];
  if (mode === "structured") content.push({ type: "text", text: output.summary, annotations: { audience: ["user"] } });
  return { content, structuredContent: output.structured };
}

/**
 * The size bound (spec 002): when a value's serialization exceeds the limit, save the whole value as an artifact and
 * return it with its data fields set to null and an `incomplete` marker. When the artifact cannot be saved, `save`
 * throws (`artifact_write_failed`) and the call is an error result.
 */
export async function boundValue(
  value: Record<string, unknown>,
  dataFields: readonly string[],
  context: Pick<PresentContext, "structuredMaxBytes" | "artifacts">,
): Promise<{ value: Record<string, unknown>; incomplete?: Incomplete }> {
  const json = JSON.stringify(value);
  const bytes = new TextEncoder().encode(json).length;
  if (bytes <= context.structuredMaxBytes) return { value };
  const artifactId = await context.artifacts.save(json);
  const bounded: Record<string, unknown> = { ...value };
  for (const field of dataFields) if (field in bounded) bounded[field] = null;
  const incomplete: Incomplete = { reason: "size", bytes, limitBytes: context.structuredMaxBytes, artifactId };
  return { value: { ...bounded, incomplete }, incomplete };
}

/** An error result: isError, no structuredContent, the envelope as text and the code in _meta. */
export function toErrorResult(code: string, message: string): CallToolResult {
  const envelope: ErrorEnvelope = { status: "error", code, message };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(envelope) }], _meta: { code } };
}
