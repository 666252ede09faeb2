import { InvalidArgumentsError, quoteInput } from "./errors.ts";

/** Most paths one call may name. */
export const MAX_PATHS = 512;

function refuse(path: unknown, reason: string): never {
  throw new InvalidArgumentsError(`Path ${quoteInput(path)} refused: ${reason}`, "invalid_path");
}

/** Longest file or directory name (most file systems allow 255 bytes). */
const MAX_NAME_LENGTH = 255;

/** Path syntax of the host: on Windows `\` is a separator, on POSIX an ordinary file-name character. */
export interface PathSyntax {
  windows: boolean;
}

/**
 * Validate one project-relative path and return it normalized (POSIX separators, no "." or ".." segments;
 * "." for the root). Refuses empty, NUL-containing, leading-dash, absolute and escaping paths, and names longer than
 * 255 characters.
 */
export function normalizeRelativePath(path: string, syntax: PathSyntax = { windows: false }): string {
  if (path.length === 0) refuse(path, "empty path");
  if (path.includes("\0")) refuse(path, "contains a NUL character");
  if (path.startsWith("-")) refuse(path, "starts with '-' (could be read as an option)");
  const slashed = syntax.windows ? path.replace(/\\/g, "/") : path;
  if (slashed.startsWith("/") || /^[A-Za-z]:/.test(slashed)) refuse(path, "absolute paths are not allowed; use a project-relative path");
  // On POSIX `\` is a file-name character, never a separator (`a\b.ts` is not `a/b.ts`); but tsc and oxlint read it
  // as a separator on every OS and would check another file or none, so such a name is refused rather than misread.
  if (!syntax.windows && path.includes("\\")) refuse(path, "contains '\\', which the engines read as a directory separator; rename the file");
  const stack: string[] = [];
  for (const segment of slashed.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (stack.length === 0) refuse(path, "escapes the project root");
      stack.pop();
    } else {
      if (segment.length > MAX_NAME_LENGTH) refuse(path, `a name is longer than ${MAX_NAME_LENGTH} characters`);
      stack.push(segment);
    }
  }
  return stack.length === 0 ? "." : stack.join("/");
}

/** Validate a path list: at most 512 entries, each a valid relative path; duplicates collapse. */
export function normalizePathList(paths: readonly string[], syntax: PathSyntax = { windows: false }): string[] {
  if (paths.length > MAX_PATHS) {
    throw new InvalidArgumentsError(`Too many paths: ${paths.length} (at most ${MAX_PATHS})`, "invalid_path");
  }
  return [...new Set(paths.map((path) => normalizeRelativePath(path, syntax)))];
}

/** True when `file` is `scope` or lies inside it (both normalized relative paths). */
export function isWithin(file: string, scope: string): boolean {
  return scope === "." || file === scope || file.startsWith(`${scope}/`);
}

/**
 * Convert an absolute path under `root` into a project-relative POSIX path, or null when it lies outside. Backslashes
 * are separators only under a Windows root (drive letter or UNC); on POSIX they are file-name characters.
 */
export function relativeToRoot(root: string, absolute: string): string | null {
  const windows = /^[A-Za-z]:|^\\\\/.test(root);
  const normRoot = (windows ? root.replace(/\\/g, "/") : root).replace(/\/+$/, "");
  const normPath = windows ? absolute.replace(/\\/g, "/") : absolute;
  const caseFold = windows;
  const a = caseFold ? normPath.toLowerCase() : normPath;
  const r = caseFold ? normRoot.toLowerCase() : normRoot;
  if (a === r) return ".";
  if (!a.startsWith(`${r}/`)) return null;
  return normPath.slice(normRoot.length + 1);
}
