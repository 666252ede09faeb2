import type { Severity } from "./contracts.ts";
import type { SnapshotIssue } from "./delta.ts";
import { idsWithOrdinals, shortIdLength } from "./issues.ts";
import { normalizeMessage, templateQuoted } from "./normalize.ts";

/** Most diagnostics one ingest call may carry. */
export const MAX_INGEST = 10_000;

/** An LSP diagnostic reduced to what Signalint keeps, before its path is validated. */
export interface LspCandidate {
  /** `file` as given, or the path decoded from a `file://` URI (absolute). */
  path: string;
  fromUri: boolean;
  line: number;
  col: number;
  severity: Severity;
  rule: string;
  source: string;
  message: string;
}

/** An accepted diagnostic with its project-relative file. */
export type LspAccepted = Omit<LspCandidate, "path" | "fromUri"> & { file: string };

const LSP_SEVERITY: Record<number, Severity | string> = { 1: "error", 2: "warning", 3: "information", 4: "hint" };
const TS_SOURCES = new Set(["ts", "typescript", "tsserver"]);

function isPosition(value: unknown): value is { line: number; character: number } {
  const position = value as { line: unknown; character: unknown };
  return (
    typeof position === "object" &&
    position !== null &&
    Number.isSafeInteger(position.line) &&
    Number.isSafeInteger(position.character) &&
    (position.line as number) >= 0 &&
    (position.character as number) >= 0
  );
}

/** The rule of a diagnostic from its `code` (string, number or `{value}`); tsserver's numeric codes become TSnnnn. */
function ruleOf(code: unknown, source: string): string | null {
  const value = typeof code === "object" && code !== null && "value" in code ? (code as { value: unknown }).value : code;
  if (value === undefined || value === null) return source;
  if (typeof value === "number" && Number.isFinite(value)) return TS_SOURCES.has(source.toLowerCase()) ? `TS${value}` : String(value);
  if (typeof value === "string" && value.length > 0 && value.length <= 200) return value;
  return null;
}

/** Decode a `file://` URI to a path (POSIX, or `C:/…` for a Windows drive); null when it is not a file URI. */
export function fileUriToPath(uri: string): string | null {
  if (!/^file:\/\//i.test(uri)) return null;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    // Not a URL: no path.
    return null;
  }
  if (url.host !== "" && url.host !== "localhost") return null;
  const path = decodeURIComponent(url.pathname);
  if (path.includes("\0")) return null;
  return /^\/[A-Za-z]:/.test(path) ? path.slice(1) : path;
}

/**
 * Read one LSP Diagnostic (plus `file` or `uri`): 0-based positions become 1-based, severity 1/2 become
 * error/warning. Returns the reason as a string when the item is refused (bad shape, severity 3–4, not a file URI).
 */
export function readLspDiagnostic(item: unknown, fallbackSource: string): LspCandidate | string {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return "not an object";
  const diagnostic = item as Record<string, unknown>;
  const { file, uri, range, severity, message } = diagnostic;
  if ((file === undefined) === (uri === undefined)) return "needs exactly one of file or uri";
  if (file !== undefined && (typeof file !== "string" || file.length === 0)) return "file must be a non-empty string";
  if (uri !== undefined && typeof uri !== "string") return "uri must be a string";
  const range_ = range as { start?: unknown; end?: unknown } | null;
  if (typeof range_ !== "object" || range_ === null || !isPosition(range_.start) || !isPosition(range_.end)) {
    return "range must be {start:{line, character}, end:{line, character}} with non-negative integers (0-based)";
  }
  if (typeof message !== "string" || message.trim().length === 0) return "message must be a non-empty string";
  if (severity !== undefined && !(Number.isInteger(severity) && (severity as number) >= 1 && (severity as number) <= 4)) return "severity must be 1, 2, 3 or 4";
  // LSP leaves a missing severity to the client; editors show it as an error.
  const level = LSP_SEVERITY[(severity as number | undefined) ?? 1] as string;
  if (level !== "error" && level !== "warning") return `severity ${severity} (${level}) is not kept; only errors and warnings are`;
  const source = typeof diagnostic.source === "string" && diagnostic.source.length > 0 ? diagnostic.source.slice(0, 100) : fallbackSource;
  const rule = ruleOf(diagnostic.code, source);
  if (rule === null) return "code must be a string, a number or {value: string | number}";
  let path = file as string | undefined;
  if (uri !== undefined) {
    const decoded = fileUriToPath(uri as string);
    if (decoded === null) return `uri ${JSON.stringify((uri as string).slice(0, 200))} is not a local file:// URI`;
    path = decoded;
  }
  return {
    path: path as string,
    fromUri: uri !== undefined,
    line: range_.start.line + 1,
    col: range_.start.character + 1,
    severity: level,
    rule,
    source,
    message: normalizeMessage(message),
  };
}

/** Ids for accepted LSP diagnostics, as engine issues get them (file, rule, line, templated message; plus source). */
export function lspIssues(accepted: readonly LspAccepted[], hash: (text: string) => string): SnapshotIssue[] {
  const ordered = [...accepted].sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      a.col - b.col ||
      (a.source < b.source ? -1 : a.source > b.source ? 1 : 0) ||
      (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0) ||
      (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
  const fullIds = idsWithOrdinals(
    ordered.map((entry) => ["lsp", entry.source, entry.file, entry.rule, entry.line, templateQuoted(entry.message)].join("\0")),
    hash,
  );
  const length = shortIdLength(fullIds);
  return ordered.map((entry, index) => {
    const fullId = fullIds[index] as string;
    return {
      issueId: fullId.slice(0, length),
      file: entry.file,
      line: entry.line,
      col: entry.col,
      engine: "lsp",
      rule: entry.rule,
      severity: entry.severity,
      message: entry.message,
      fixable: false,
      clusterId: null,
      source: entry.source,
      fullId,
    };
  });
}
