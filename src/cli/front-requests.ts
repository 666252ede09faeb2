// Which lines the stdio front (cli/front.ts) may answer: `initialize` and `tools/list` exactly as the SDK's server
// accepts them — its transport parses the JSON-RPC envelope strictly (JSONRPCMessageSchema: no other key), its
// handlers parse InitializeRequestSchema and ListToolsRequestSchema. Zod and the SDK are what the front answers without
// loading, so this is a hand check that errs on refusing: a key or a value it is not sure of, and the line goes to the
// SDK, whose own reply (or, for a line its transport drops, none) the client then gets, as without the front.
// test/e2e/front-requests.test.ts holds it to the SDK's schemas.

type Json = Record<string, unknown>;

/** A request the front answers: its envelope as the SDK's transport accepts it. */
export interface FrontRequest {
  jsonrpc: "2.0";
  id: string | number;
  method: "initialize" | "tools/list";
  params?: Json;
}

/** What the front does with a line: answer it, queue it without loading the server (a notification), or hand it on. */
export type LineKind = { kind: "answer"; request: FrontRequest } | { kind: "notification"; method: string } | { kind: "other" };

/** Longer lines are never answered by the front (nothing it answers is near this size). */
const MAX_LINE = 65_536;

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);
const isString = (value: unknown): value is string => typeof value === "string";
/** The SDK's AssertObjectSchema: any non-null object (an array too). */
const isAnyObject = (value: unknown): boolean => typeof value === "object" && value !== null;
/** A JSON-RPC id or a progress token: a string or an integer (zod's `int()` takes only safe ones). */
const isIdentifier = (value: unknown): boolean => typeof value === "string" || Number.isSafeInteger(value);
const optional = (value: unknown, check: (value: unknown) => boolean): boolean => value === undefined || check(value);
const onlyKeys = (value: Json, keys: readonly string[]): boolean => Object.keys(value).every((key) => keys.includes(key));
/** An object whose keys are all known and whose known keys each pass their check (absent counts as passing). */
const shaped = (value: unknown, checks: Record<string, (value: unknown) => boolean>): boolean =>
  isObject(value) && onlyKeys(value, Object.keys(checks)) && Object.entries(checks).every(([key, check]) => optional(value[key], check));
const recordOf = (check: (value: unknown) => boolean) => (value: unknown) => isObject(value) && Object.values(value).every(check);

/** The keys the front checks in each object; the test compares them with the SDK's schemas' keys. */
export const KNOWN_KEYS = {
  envelope: ["jsonrpc", "id", "method", "params"],
  initializeParams: ["_meta", "protocolVersion", "capabilities", "clientInfo"],
  listParams: ["_meta", "cursor"],
  capabilities: ["experimental", "sampling", "elicitation", "roots", "tasks", "extensions"],
  clientInfo: ["name", "title", "icons", "version", "websiteUrl", "description"],
} as const;

/** `_meta` as RequestMetaSchema takes it, less a related task (the SDK then queues replies for the task). */
const isMeta = (value: unknown): boolean =>
  isObject(value) && optional(value.progressToken, isIdentifier) && value["io.modelcontextprotocol/related-task"] === undefined;

const isIcon = (value: unknown): boolean =>
  shaped(value, { src: isString, mimeType: isString, sizes: (v) => Array.isArray(v) && v.every(isString), theme: (v) => v === "light" || v === "dark" }) &&
  isString((value as Json).src);

/** ClientCapabilitiesSchema's members; an unknown capability is dropped by the SDK's schema (not strict), so it passes. */
const CAPABILITY_CHECKS: Record<(typeof KNOWN_KEYS.capabilities)[number], (value: unknown) => boolean> = {
  experimental: recordOf(isAnyObject),
  sampling: (value) => shaped(value, { context: isAnyObject, tools: isAnyObject }),
  elicitation: (value) => shaped(value, { form: (form) => shaped(form, { applyDefaults: (v) => typeof v === "boolean" }), url: isAnyObject }),
  roots: (value) => shaped(value, { listChanged: (v) => typeof v === "boolean" }),
  tasks: (value) =>
    shaped(value, {
      list: isAnyObject,
      cancel: isAnyObject,
      requests: (requests) =>
        shaped(requests, {
          sampling: (v) => shaped(v, { createMessage: isAnyObject }),
          elicitation: (v) => shaped(v, { create: isAnyObject }),
        }),
    }),
  extensions: recordOf(isAnyObject),
};

const isCapabilities = (value: unknown): boolean => isObject(value) && Object.entries(CAPABILITY_CHECKS).every(([key, check]) => optional(value[key], check));

const isClientInfo = (value: unknown): boolean =>
  isObject(value) &&
  isString(value.name) &&
  isString(value.version) &&
  optional(value.title, isString) &&
  optional(value.icons, (icons) => Array.isArray(icons) && icons.every(isIcon)) &&
  optional(value.websiteUrl, isString) &&
  optional(value.description, isString);

function answerableParams(method: unknown, params: unknown): boolean {
  if (method === "tools/list") return params === undefined || shaped(params, { _meta: isMeta, cursor: isString });
  if (method !== "initialize" || !shaped(params, { _meta: isMeta, protocolVersion: isString, capabilities: isCapabilities, clientInfo: isClientInfo }))
    return false;
  const { protocolVersion, capabilities, clientInfo } = params as Json;
  return protocolVersion !== undefined && capabilities !== undefined && clientInfo !== undefined;
}

/** What the front does with one line from the client (see LineKind). */
export function classifyLine(line: string): LineKind {
  if (line.length > MAX_LINE) return { kind: "other" };
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return { kind: "other" }; // the SDK's transport reports it
  }
  if (!isObject(message)) return { kind: "other" };
  const { jsonrpc, id, method, params } = message;
  if (!("id" in message) && isString(method)) return { kind: "notification", method };
  if (jsonrpc !== "2.0" || !isIdentifier(id) || !onlyKeys(message, KNOWN_KEYS.envelope) || !answerableParams(method, params)) return { kind: "other" };
  return { kind: "answer", request: message as unknown as FrontRequest };
}
