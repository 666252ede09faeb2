import { z } from "zod";

/** Keywords that describe a schema rather than constrain it: they stay on a node whose `type` array is split. */
const ANNOTATIONS = new Set(["description", "title", "default", "examples", "$comment", "deprecated", "readOnly", "writeOnly"]);

/**
 * Rewrite every `type: [a, b]` (zod's spelling of a nullable string, number or boolean) as `anyOf` branches with one
 * `type` each: legal either way, but single-type dialects (Gemini's OpenAPI subset, MCP Inspector's portability
 * check) reject or warn about type arrays. Also drops zod's default safe-integer bounds and the `type` beside a
 * `const` or `enum`.
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
  // `const` and `enum` already fix the type; zod repeats it (~16 bytes each, ~90 of them in tools/list).
  if (("const" in rewritten || "enum" in rewritten) && typeof rewritten.type === "string") delete rewritten.type;
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

/**
 * JSON Schema for a zod contract; the root is always type "object". Shapes registered with an id (`.meta({id})` in
 * core/contracts.ts: Issue, Cluster, Engines, Delta, …) are written once under `$defs` and referenced with `$ref`, so a
 * tool whose result repeats a shape carries it once. `$defs`/`#/$defs/…` is 2020-12's spelling (MCP's default
 * dialect); the SDK client's Ajv, Ajv's draft-07 default and MCP Inspector all resolve it. No `$schema`: clients
 * apply their own default dialect.
 */
export function toJsonSchema(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const raw = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Record<string, unknown>;
  const single = singleTypes(raw);
  const { $schema: _ignored, ...json } = (io === "output" ? withoutCountBounds(single) : single) as Record<string, unknown>;
  return json.type === "object" ? json : { type: "object", ...json };
}

/** Bounds an output field keeps: they say something its name does not (1-based positions, the priority scale). */
const TELLING_BOUNDS = new Set(["line", "col", "priority"]);

/**
 * Drop `minimum` from output fields that are counts, sizes and offsets (≥ 0 or ≥ 1 is what the name says; ~60 of
 * them in tools/list). Input bounds stay: they are constraints a caller must meet.
 */
export function withoutCountBounds(node: unknown, name = ""): unknown {
  if (Array.isArray(node)) return node.map((item) => withoutCountBounds(item, name));
  if (typeof node !== "object" || node === null) return node;
  const entries = Object.entries(node)
    .filter(([key]) => key !== "minimum" || TELLING_BOUNDS.has(name))
    .map(([key, value]) => {
      if (key === "properties")
        return [key, Object.fromEntries(Object.entries(value as object).map(([field, inner]) => [field, withoutCountBounds(inner, field)]))];
      if (key === "$defs") return [key, Object.fromEntries(Object.entries(value as object).map(([id, inner]) => [id, withoutCountBounds(inner)]))];
      // A field's anyOf branches (nullable) and array items belong to the same field name.
      return [key, key === "anyOf" || key === "items" ? withoutCountBounds(value, name) : withoutCountBounds(value)];
    });
  return Object.fromEntries(entries);
}
