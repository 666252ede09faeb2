import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { PayloadMode } from "../core/config.ts";
import type { ErrorEnvelope, Incomplete } from "../core/contracts.ts";
import type { ToolOutput } from "./tool.ts";

/**
 * Serialize a tool's output for the payload mode (spec 000): `both` → JSON text + structuredContent; `text` →
 * minified JSON only; `structured` → as both plus a human summary for the user. Ping's literal text stays first.
 */
export function toCallToolResult(output: ToolOutput, mode: PayloadMode): CallToolResult {
  const text = output.literalText ?? JSON.stringify(mode === "text" ? (output.textValue ?? output.structured) : output.structured);
  if (mode === "text") return { content: [{ type: "text", text }] };
  const content: CallToolResult["content"] = [{ type: "text", text }];
  if (mode === "structured") content.push({ type: "text", text: output.summary, annotations: { audience: ["user"] } });
  return { content, structuredContent: output.structured };
}

/**
 * Enforce the size bound on a structured value: when its serialization exceeds `limitBytes`, save the full value as
 * an artifact and return the value with its data fields set to null and an `incomplete` marker. Never clipped; when
 * the artifact cannot be saved, `save` throws (`artifact_write_failed`) and the call is an error result.
 */
export async function boundStructured(
  output: ToolOutput,
  options: { limitBytes: number; dataFields: readonly string[]; save: (json: string) => Promise<string> },
): Promise<ToolOutput> {
  const json = JSON.stringify(output.structured);
  const bytes = new TextEncoder().encode(json).length;
  if (bytes <= options.limitBytes) return output;
  const artifactId = await options.save(json);
  const structured: Record<string, unknown> = { ...output.structured };
  for (const field of options.dataFields) if (field in structured) structured[field] = null;
  const incomplete: Incomplete = { reason: "size", bytes, limitBytes: options.limitBytes, artifactId };
  structured.incomplete = incomplete;
  const how = `read it with artifact_read {"artifactId":"${artifactId}"}`;
  return { ...output, structured, summary: `${output.summary}\n(Full result is ${bytes} bytes, over the ${options.limitBytes}-byte bound: ${how}.)` };
}

/** An error result: isError, no structuredContent, the envelope as text and the code in _meta. */
export function toErrorResult(code: string, message: string): CallToolResult {
  const envelope: ErrorEnvelope = { status: "error", code, message };
  return { isError: true, content: [{ type: "text", text: JSON.stringify(envelope) }], _meta: { code } };
}
