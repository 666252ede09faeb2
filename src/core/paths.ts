import { InvalidArgumentsError } from "./errors.ts";

/** Most paths one call may name. */
export const MAX_PATHS = 512;

function refuse(path: unknown, reason: string): never {
  throw new InvalidArgumentsError(`Path ${JSON.stringify(path)} refused: ${reason}`, "invalid_path");
}

/**
 * Validate one project-relative path and return it normalized (POSIX separators, no "." or ".." segments;
 * "." for the root). Refuses empty, NUL-containing, leading-dash, absolute and escaping paths.
 */
export function normalizeRelativePath(path: string): string {
  if (path.length === 0) refuse(path, "empty path");
  if (path.includes("\0")) refuse(path, "contains a NUL character");
  if (path.startsWith("-")) refuse(path, "starts with '-' (could be read as an option)");
  const slashed = path.replace(/\\/g, "/");
  if (slashed.startsWith("/") || /^[A-Za-z]:/.test(slashed)) refuse(path, "absolute paths are not allowed; use a project-relative path");
  const stack: string[] = [];
  for (const segment of slashed.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (stack.length === 0) refuse(path, "escapes the project root");
      stack.pop();
    } else {
      stack.push(segment);
    }
  }
  return stack.length === 0 ? "." : stack.join("/");
}

/** Validate a path list: at most 512 entries, each a valid relative path; duplicates collapse. */
export function normalizePathList(paths: readonly string[]): string[] {
  if (paths.length > MAX_PATHS) {
    throw new InvalidArgumentsError(`Too many paths: ${paths.length} (at most ${MAX_PATHS})`, "invalid_path");
  }
  return [...new Set(paths.map(normalizeRelativePath))];
}

/** True when `file` is `scope` or lies inside it (both normalized relative paths). */
export function isWithin(file: string, scope: string): boolean {
  return scope === "." || file === scope || file.startsWith(`${scope}/`);
}

/** Convert an absolute path under `root` into a project-relative POSIX path, or null when it lies outside. */
export function relativeToRoot(root: string, absolute: string): string | null {
  const normRoot = root.replace(/\\/g, "/").replace(/\/+$/, "");
  const normPath = absolute.replace(/\\/g, "/");
  const caseFold = /^[A-Za-z]:/.test(normRoot);
  const a = caseFold ? normPath.toLowerCase() : normPath;
  const r = caseFold ? normRoot.toLowerCase() : normRoot;
  if (a === r) return ".";
  if (!a.startsWith(`${r}/`)) return null;
  return normPath.slice(normRoot.length + 1);
}
