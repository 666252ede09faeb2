/** Longest message an issue carries. */
export const MAX_MESSAGE_LENGTH = 120;

/** Collapse whitespace and cut to 120 characters, marking a cut with "…". */
export function normalizeMessage(message: string): string {
  const collapsed = message.replace(/\s+/g, " ").trim();
  if (collapsed.length <= MAX_MESSAGE_LENGTH) return collapsed;
  return `${collapsed.slice(0, MAX_MESSAGE_LENGTH - 1).trimEnd()}…`;
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
