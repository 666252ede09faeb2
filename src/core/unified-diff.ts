import { commonEnds } from "./line-diff.ts";
/** Lines of context around each change, as `diff -u` and git print by default. */
const CONTEXT = 3;
/** Above this many line pairs the changed middle is printed as one replacement (still a correct diff, only larger). */
const MAX_CELLS = 4_000_000;

type Op = { kind: " " | "-" | "+"; line: string };

/** The edit script of the middle lines: a longest common subsequence, or one replacement when that would cost too much. */
function middleOps(a: readonly string[], b: readonly string[]): Op[] {
  const replace = (): Op[] => [...a.map((line) => ({ kind: "-" as const, line })), ...b.map((line) => ({ kind: "+" as const, line }))];
  if (a.length * b.length > MAX_CELLS) return replace();
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lengths[i * width + j] =
        a[i] === b[j]
          ? (lengths[(i + 1) * width + j + 1] as number) + 1
          : Math.max(lengths[(i + 1) * width + j] as number, lengths[i * width + j + 1] as number);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      ops.push({ kind: " ", line: a[i] as string });
      i++;
      j++;
    } else if ((lengths[(i + 1) * width + j] as number) >= (lengths[i * width + j + 1] as number)) ops.push({ kind: "-", line: a[i++] as string });
    else ops.push({ kind: "+", line: b[j++] as string });
  }
  while (i < a.length) ops.push({ kind: "-", line: a[i++] as string });
  while (j < b.length) ops.push({ kind: "+", line: b[j++] as string });
  return ops;
}

/** Split into lines, remembering whether the text ends without a newline (printed as git does). */
function linesOf(text: string): { lines: string[]; missingNewline: boolean } {
  if (text === "") return { lines: [], missingNewline: false };
  const lines = text.split("\n");
  if (lines.at(-1) === "") {
    lines.pop();
    return { lines, missingNewline: false };
  }
  return { lines, missingNewline: true };
}

/**
 * A unified diff of one file (`--- a/<file>`, `+++ b/<file>`, hunks with three lines of context), as `git diff`
 * prints it; empty when the texts are equal.
 */
export function unifiedDiff(file: string, before: string, after: string): string {
  if (before === after) return "";
  const a = linesOf(before);
  const b = linesOf(after);
  // The last line's missing newline is part of that line, so a change of it alone still shows.
  const tag = (lines: string[], missing: boolean) => (missing && lines.length ? [...lines.slice(0, -1), `${lines.at(-1)}\0`] : lines);
  const left = tag(a.lines, a.missingNewline);
  const right = tag(b.lines, b.missingNewline);
  const { start, endA, endB } = commonEnds(left, right);
  const ops: Op[] = [
    ...left.slice(0, start).map((line) => ({ kind: " " as const, line })),
    ...middleOps(left.slice(start, endA), right.slice(start, endB)),
    ...left.slice(endA).map((line) => ({ kind: " " as const, line })),
  ];
  return [`--- a/${file}`, `+++ b/${file}`, ...hunks(ops)].join("\n") + "\n";
}

/** Group the edit script into hunks with their `@@ -a,n +b,m @@` headers. */
function hunks(ops: readonly Op[]): string[] {
  const out: string[] = [];
  const changed = ops.map((op, index) => (op.kind === " " ? -1 : index)).filter((index) => index >= 0);
  let cursor = 0;
  while (cursor < changed.length) {
    const first = changed[cursor] as number;
    let last = first;
    while (cursor + 1 < changed.length && (changed[cursor + 1] as number) - last <= 2 * CONTEXT + 1) last = changed[++cursor] as number;
    cursor++;
    const from = Math.max(0, first - CONTEXT);
    const to = Math.min(ops.length, last + CONTEXT + 1);
    let oldStart = 1;
    let newStart = 1;
    for (const op of ops.slice(0, from)) {
      if (op.kind !== "+") oldStart++;
      if (op.kind !== "-") newStart++;
    }
    const slice = ops.slice(from, to);
    const oldCount = slice.filter((op) => op.kind !== "+").length;
    const newCount = slice.filter((op) => op.kind !== "-").length;
    out.push(`@@ -${oldCount ? oldStart : oldStart - 1},${oldCount} +${newCount ? newStart : newStart - 1},${newCount} @@`);
    for (const op of slice) {
      const missing = op.line.endsWith("\0");
      out.push(`${op.kind}${missing ? op.line.slice(0, -1) : op.line}`);
      if (missing) out.push("\\ No newline at end of file");
    }
  }
  return out;
}

/**
 * Where each line of `before` is in `after` (1-based), from the same edit script as the diff: a kept line where it
 * went; a changed line at the same offset in the lines that replaced it (the last of them when fewer); a line removed
 * with nothing in its place where the next kept line went. An issue found on `before` (the check's text) is looked for
 * there in a text an earlier engine's fix changed.
 */
export function lineMap(before: string, after: string): (line: number) => number {
  if (before === after) return (line) => line;
  const a = before.split("\n");
  const b = after.split("\n");
  const { start, endA, endB } = commonEnds(a, b);
  const map = new Uint32Array(a.length + 1);
  for (let line = 0; line < start; line++) map[line] = line;
  let i = start;
  let j = start;
  const ops = middleOps(a.slice(start, endA), b.slice(start, endB));
  for (let at = 0; at < ops.length; ) {
    if ((ops[at] as Op).kind === " ") {
      map[i++] = j++;
      at++;
      continue;
    }
    // One run of removed and added lines: the removed ones map onto the added ones, offset by offset.
    const removedFrom = i;
    const addedFrom = j;
    while (at < ops.length && (ops[at] as Op).kind !== " ") (ops[at++] as Op).kind === "-" ? i++ : j++;
    const added = j - addedFrom;
    for (let line = removedFrom; line < i; line++) map[line] = added ? addedFrom + Math.min(line - removedFrom, added - 1) : addedFrom;
  }
  for (let line = endA; line < a.length; line++) map[line] = line - endA + endB;
  return (line) => (line >= 1 && line <= a.length ? (map[line - 1] as number) + 1 : line);
}
