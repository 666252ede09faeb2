/** Longest message an issue carries. */
export const MAX_MESSAGE_LENGTH = 120;

const collapse = (text: string) => text.replace(/\s+/g, " ").trim();

/** Shorten the longest quoted value (keeping its quotes and start) until the text fits or no value is worth cutting. */
function shortenQuoted(text: string): string {
  let out = text;
  while (out.length > MAX_MESSAGE_LENGTH) {
    // Pair quotes left to right (every quoted value, short ones too), then pick the longest worth cutting.
    const values = [...out.matchAll(/'[^']*'|"[^"]*"/g)].filter((match) => match[0].length >= 18).sort((a, b) => b[0].length - a[0].length);
    const longest = values[0];
    if (!longest || longest.index === undefined) break;
    // The cut value is `keep` characters plus "…" and the closing quote.
    const keep = Math.max(10, longest[0].length - (out.length - MAX_MESSAGE_LENGTH) - 2);
    if (keep >= longest[0].length - 2) break;
    const quote = longest[0][0] as string;
    out = `${out.slice(0, longest.index)}${longest[0].slice(0, keep).trimEnd()}…${quote}${out.slice(longest.index + longest[0].length)}`;
  }
  return out;
}

/**
 * Collapse whitespace and fit in 120 characters, marking a cut with "…". A long TypeScript message chain keeps its
 * first line (what is wrong) and its last (the deepest reason, which explains it) and drops the middle; long quoted
 * types are shortened before the sentence is cut. The whole text stays one get_issue_detail away (fullMessage).
 */
export function normalizeMessage(message: string): string {
  const collapsed = collapse(message);
  if (collapsed.length <= MAX_MESSAGE_LENGTH) return collapsed;
  const lines = message.split(/\r?\n/).map(collapse).filter(Boolean);
  const last = lines.at(-1) as string;
  const chained = lines.length > 1 ? `${lines[0]} … ${last}` : collapsed;
  const fitted = shortenQuoted(chained);
  if (fitted.length <= MAX_MESSAGE_LENGTH) return fitted;
  return `${fitted.slice(0, MAX_MESSAGE_LENGTH - 1).trimEnd()}…`;
}

const QUOTED = /'[^']*'|"[^"]*"|`[^`]*`/g;

/** Replace quoted values with a placeholder: the shape of a message, for stable ids. */
export function templateQuoted(message: string): string {
  return message.replace(QUOTED, "<v>");
}

/** Replace quoted values, identifiers in quotes and numbers: the loop signature of a message. */
export function templateSignature(message: string): string {
  return message.replace(QUOTED, "<identifier>").replace(/\b\d+(\.\d+)?\b/g, "<n>");
}

/** The quoted values of a message, without their quotes. */
export function quotedValues(message: string): string[] {
  return (message.match(QUOTED) ?? []).map((value) => value.slice(1, -1)).filter((value) => value.length > 0);
}
