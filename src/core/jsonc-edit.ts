import { findNodeAtLocation, type Node, parseTree } from "jsonc-parser";

/** The indentation of the line `offset` is on. */
function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf("\n", offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))?.[0] ?? "";
}

/** `value` as JSON at `indent`: two spaces per level, continuation lines indented. */
function formatValue(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}

/** The offset just past a comma following `offset` (only whitespace and comments between), or null. */
function commaAfter(text: string, offset: number): number | null {
  const rest = text.slice(offset);
  const match = /^(?:\s|\/\/[^\n]*|\/\*[\s\S]*?\*\/)*,/.exec(rest);
  return match ? offset + match[0].length : null;
}

/**
 * Add `key: value` as the last property of the object `node`, touching nothing else: every comment, every other
 * entry and its layout stay where they were. The new entry starts on its own line after the last property's line
 * (so a comment that ends that line stays with it), indented as that property is.
 */
function appendProperty(text: string, node: Node, key: string, value: unknown): string {
  const properties = node.children ?? [];
  const last = properties.at(-1);
  const close = node.offset + node.length - 1;
  if (!last) {
    const indent = `${lineIndent(text, node.offset)}  `;
    const entry = `${JSON.stringify(key)}: ${formatValue(value, indent)}`;
    const inner = text.slice(node.offset + 1, close);
    return `${text.slice(0, node.offset + 1)}${inner.trimEnd()}\n${indent}${entry}\n${lineIndent(text, close)}${text.slice(close)}`;
  }
  const end = last.offset + last.length;
  const comma = commaAfter(text, end);
  const afterLast = comma ?? end;
  const newline = text.indexOf("\n", afterLast);
  if (newline === -1 || newline > close) {
    // The object closes on the last property's line: stay on that line.
    const entry = `${JSON.stringify(key)}: ${JSON.stringify(value)}`;
    return `${text.slice(0, afterLast)}${comma === null ? "," : ""} ${entry}${text.slice(afterLast)}`;
  }
  const indent = lineIndent(text, last.offset);
  const entry = `${JSON.stringify(key)}: ${formatValue(value, indent)}${comma === null ? "" : ","}`;
  const withComma = comma === null ? `${text.slice(0, end)},${text.slice(end, newline)}` : text.slice(0, newline);
  return `${withComma}\n${indent}${entry}${text.slice(newline)}`;
}

/**
 * Set `path` to `value` in a JSON-with-comments document with the smallest edit: an existing value is replaced in
 * place; a missing key is added at the end of the deepest object that exists, as nested objects. The document must
 * parse and hold objects along the path (callers check).
 */
export function setJsoncValue(text: string, path: readonly string[], value: unknown): string {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false });
  if (!root || root.type !== "object") throw new SyntaxError("the document is not an object");
  const existing = findNodeAtLocation(root, [...path]);
  if (existing) {
    const indent = lineIndent(text, existing.offset);
    return `${text.slice(0, existing.offset)}${formatValue(value, indent)}${text.slice(existing.offset + existing.length)}`;
  }
  let depth = 0;
  let object = root;
  for (; depth < path.length - 1; depth++) {
    const next = findNodeAtLocation(root, path.slice(0, depth + 1));
    if (!next || next.type !== "object") break;
    object = next;
  }
  const nested = path.slice(depth + 1).reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
  return appendProperty(text, object, path[depth] as string, nested);
}
