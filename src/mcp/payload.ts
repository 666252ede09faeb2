import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { PayloadMode } from "../core/config.ts";
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

/** An error result: isError, no structuredContent, the envelope as text and the code in _meta. */
export function toErrorResult(code: string, message: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: "text", text: JSON.stringify({ status: "error", code, message }) }],
    _meta: { code },
  };
}
