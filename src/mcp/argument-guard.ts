import { Transform, type TransformCallback } from "node:stream";
import { StringDecoder } from "node:string_decoder";

/** The `_meta` key the guard adds to a tools/call whose arguments carried a prototype key; callTool refuses it. */
export const REFUSED_KEY_META = "signalint/refusedKey";

/** Keys an object schema never reports: refused like any unknown key. */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** The first prototype key anywhere in a parsed value, with its dotted location. */
export function prototypeKey(value: unknown, at = ""): string | null {
  if (typeof value !== "object" || value === null) return null;
  for (const key of Object.keys(value)) {
    if (PROTOTYPE_KEYS.has(key)) return `${at}${key}`;
    const nested = prototypeKey((value as Record<string, unknown>)[key], `${at}${key}.`);
    if (nested) return nested;
  }
  return null;
}

/** A line with a prototype key in a tools/call's arguments, rewritten to carry the marker; other lines unchanged. */
function markLine(line: string): string {
  if (!line.includes("__proto__") && !line.includes("constructor") && !line.includes("prototype")) return line;
  let message: { method?: unknown; params?: { arguments?: unknown; _meta?: Record<string, unknown> } };
  try {
    message = JSON.parse(line);
  } catch {
    return line;
  }
  if (message?.method !== "tools/call" || typeof message.params !== "object" || message.params === null) return line;
  const key = prototypeKey(message.params.arguments);
  if (!key) return line;
  message.params._meta = { ...message.params._meta, [REFUSED_KEY_META]: key };
  return JSON.stringify(message);
}

/**
 * A stdin filter for the MCP server. JSON.parse makes `"__proto__"` an own property, but the SDK's message schema
 * (zod) drops it before any handler runs, so a tools/call carrying it would be served as if it were absent. The guard
 * sees each raw line first and marks such calls in `params._meta`; callTool then refuses them like any unknown key.
 */
export function argumentGuard(): Transform {
  let pending = "";
  const decoder = new StringDecoder("utf8"); // a character split across chunks stays whole
  return new Transform({
    transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback) {
      pending += typeof chunk === "string" ? chunk : decoder.write(chunk);
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      done(null, lines.length ? `${lines.map(markLine).join("\n")}\n` : undefined);
    },
    flush(done: TransformCallback) {
      pending += decoder.end();
      done(null, pending ? markLine(pending) : undefined);
    },
  });
}
