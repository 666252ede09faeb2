/** A domain error with a machine-readable code; the MCP layer turns it into an isError result with _meta.code. */
export class SignalintError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = "SignalintError";
    this.code = code;
  }
}

/** Bad tool arguments or a refused path. */
export class InvalidArgumentsError extends SignalintError {
  constructor(message: string, code = "invalid_arguments") {
    super(code, message);
    this.name = "InvalidArgumentsError";
  }
}

/** An invalid signalint.config.json or environment value. */
export class ConfigError extends SignalintError {
  constructor(message: string) {
    super("invalid_config", message);
    this.name = "ConfigError";
  }
}

/** Why a file-system operation failed, the same on every runtime: each runtime adapter maps its own codes here, once. */
export type FsErrorKind = "not_found" | "not_a_directory" | "symlink_loop" | "permission_denied" | "name_too_long" | "already_exists" | "not_private" | "other";

/** A file-system failure as the Runtime interface reports it (Node errno codes and Deno error classes mapped). */
export class FsError extends Error {
  readonly kind: FsErrorKind;
  constructor(kind: FsErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FsError";
    this.kind = kind;
  }
}

/**
 * A `.catch` handler for a read whose target may not exist: `fallback` when it is not found; any other failure (no
 * permission, a loop, an I/O error) is rethrown, so an unreadable config or directory is an error, never "nothing there".
 */
export function ifMissing<T>(fallback: T): (error: unknown) => T {
  return (error) => {
    if (error instanceof FsError && error.kind === "not_found") return fallback;
    throw error;
  };
}

/** A `.catch` handler for a create that refuses to replace: `fallback` when something already exists; else rethrown. */
export function ifExists<T>(fallback: T): (error: unknown) => T {
  return (error) => {
    if (error instanceof FsError && error.kind === "already_exists") return fallback;
    throw error;
  };
}

/** Kinds that mean "not there (or not reachable by this user)": stat, lstat and realPath answer null for them. */
export const ABSENT_KINDS: ReadonlySet<FsErrorKind> = new Set(["not_found", "not_a_directory", "permission_denied"]);

/** Quote user input in a message: JSON-quoted, at most 200 characters of it (hostile input can be megabytes). */
export function quoteInput(value: unknown, max = 200): string {
  const text = typeof value === "string" ? value : String(value);
  return text.length > max ? `${JSON.stringify(text.slice(0, max))}… (${text.length} characters)` : JSON.stringify(text);
}
