import { Transform, type TransformCallback } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { quoteKey } from "./tool.ts";

/** The `_meta` key the guard adds to a tools/call whose arguments it refused (the reason); callTool refuses it. */
export const REFUSED_KEY_META = "signalint/refusedKey";

/** Keys an object schema never reports: refused like any unknown key. */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** Deepest nesting of a tools/call message (arguments need a handful of levels): deeper is refused before any walk. */
export const MAX_MESSAGE_DEPTH = 64;

/**
 * Why parsed arguments are refused before any schema sees them, or null: a prototype key anywhere (with its dotted
 * location), or nesting past MAX_MESSAGE_DEPTH. Walks with its own stack, so no depth overflows the call stack.
 */
export function refusedArguments(value: unknown): string | null {
  const pending: [unknown, string, number][] = [[value, "", 1]];
  while (pending.length) {
    const [current, at, depth] = pending.pop() as [unknown, string, number];
    if (typeof current !== "object" || current === null) continue;
    if (depth > MAX_MESSAGE_DEPTH) return `arguments nested deeper than ${MAX_MESSAGE_DEPTH} levels`;
    const keys = Object.keys(current);
    for (const key of keys) if (PROTOTYPE_KEYS.has(key)) return `unknown property ${quoteKey(`${at}${key}`)}`;
    for (const key of keys.reverse()) pending.push([(current as Record<string, unknown>)[key], `${at}${key}.`, depth + 1]);
  }
  return null;
}

/** The deepest nesting of brackets in raw JSON text (outside strings), counted without parsing. */
function textDepth(line: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < line.length; index++) {
    const char = line.charCodeAt(index);
    if (inString) {
      if (char === 92)
        index++; // backslash: skip the escaped character
      else if (char === 34) inString = false;
    } else if (char === 34) inString = true;
    else if (char === 91 || char === 123) deepest = Math.max(deepest, ++depth);
    else if (char === 93 || char === 125) depth--;
  }
  return deepest;
}

/**
 * A cheap first look for a malformed tools/call: `arguments` or `params` that is not an object (null, a string, a
 * number, an array), or a `name` that is not a string.
 */
const MALFORMED = /(?<!\\)"(arguments|params)"\s*:\s*[^{\s]|(?<!\\)"name"\s*:\s*[^"\s]/;

/** What a JSON value is, as a refusal names it. */
function kindOf(value: unknown): string {
  return value === null ? "null" : value === undefined ? "none" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
}

type ToolsCall = { method?: unknown; params?: unknown };
type Params = { name?: unknown; arguments?: unknown; _meta?: Record<string, unknown> };

/**
 * Why a parsed tools/call is refused, or null. Params or arguments that are not an object, and a name that is not a
 * string, are replaced, so the SDK's request schema — which would answer -32603 with its validation dump, or nothing
 * at all — never sees them.
 */
function refusal(message: ToolsCall, deep: boolean): string | null {
  if (typeof message.params !== "object" || message.params === null || Array.isArray(message.params)) {
    const reason = `tools/call params must be an object, got ${kindOf(message.params)}`;
    message.params = { name: "" };
    return reason;
  }
  const params = message.params as Params;
  if (typeof params.name !== "string") {
    const reason = `tools/call name must be a string, got ${kindOf(params.name)}`;
    params.name = "";
    params.arguments = {};
    return reason;
  }
  if (params.arguments !== undefined && (typeof params.arguments !== "object" || params.arguments === null || Array.isArray(params.arguments))) {
    const reason = `arguments must be an object, got ${kindOf(params.arguments)}`;
    params.arguments = {};
    return reason;
  }
  const reason = refusedArguments(params.arguments);
  // Nothing after the guard (the SDK's schemas, the handler) walks arguments it refused: they become {}.
  if (reason && deep) params.arguments = {};
  return reason;
}

/** A tools/call line with refused arguments, rewritten to carry the reason (refused arguments dropped); other lines unchanged. */
function markLine(line: string): string {
  const suspect =
    line.includes("__proto__") ||
    line.includes("constructor") ||
    line.includes("prototype") ||
    MALFORMED.test(line) ||
    (line.includes("tools/call") && !line.includes('"params"'));
  const deep = line.includes("tools/call") && textDepth(line) > MAX_MESSAGE_DEPTH;
  if (!suspect && !deep) return line;
  let message: ToolsCall;
  try {
    message = JSON.parse(line);
  } catch {
    // Not JSON: passed on unchanged, for the SDK to answer its parse error.
    return line;
  }
  if (typeof message !== "object" || message === null || message.method !== "tools/call") return line;
  const reason = refusal(message, deep);
  if (!reason) return line;
  const params = message.params as Params;
  params._meta = { ...params._meta, [REFUSED_KEY_META]: reason };
  return JSON.stringify(message);
}

/**
 * A stdin filter for the MCP server. JSON.parse makes `"__proto__"` an own property, but the SDK's message schema
 * (zod) drops it before any handler runs, so a tools/call carrying it would be served as if it were absent. The guard
 * sees each raw line first and marks such calls in `params._meta`; callTool then refuses them like any unknown key.
 * Arguments nested deeper than MAX_MESSAGE_DEPTH are refused the same way, before anything walks them recursively.
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
