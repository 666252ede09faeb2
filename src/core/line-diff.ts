/**
 * Lines added and removed between two texts: common leading and trailing lines are skipped, then the middle is
 * compared as multisets (a moved line counts as unchanged). Linear, for preview summaries only.
 */
export function countLineChanges(before: string, after: string): { addedLines: number; removedLines: number } {
  const a = before.split("\n");
  const b = after.split("\n");
  const { start, endA, endB } = commonEnds(a, b);
  const remaining = new Map<string, number>();
  for (const line of a.slice(start, endA)) remaining.set(line, (remaining.get(line) ?? 0) + 1);
  let addedLines = 0;
  for (const line of b.slice(start, endB)) {
    const count = remaining.get(line) ?? 0;
    if (count > 0) remaining.set(line, count - 1);
    else addedLines++;
  }
  let removedLines = 0;
  for (const count of remaining.values()) removedLines += count;
  return { addedLines, removedLines };
}

/** Where two line lists differ: the common leading lines end at `start`, the common trailing ones begin at `endA`/`endB`. */
export function commonEnds(a: readonly string[], b: readonly string[]): { start: number; endA: number; endB: number } {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return { start, endA, endB };
}
