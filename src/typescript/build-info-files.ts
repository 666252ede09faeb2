/**
 * The files a TypeScript build info lists (5.6+ and 7 at the top, 5.0–5.5 under `program`), as written (relative to the
 * build info's directory; TypeScript 7 names its bundled libraries without a path); null when the text says none.
 */
export function buildInfoFiles(text: string): string[] | null {
  try {
    const info = JSON.parse(text) as { fileNames?: unknown; program?: { fileNames?: unknown } };
    const names = info.fileNames ?? info.program?.fileNames;
    return Array.isArray(names) && names.every((name) => typeof name === "string") ? names : null;
  } catch {
    // Not JSON (empty, torn, another format).
    return null;
  }
}
