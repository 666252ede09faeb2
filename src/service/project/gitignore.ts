// The files git ignores, as linters that honour .gitignore (xo, standard) leave them out: every .gitignore from the
// repository's top down to each file's directory, a deeper file's patterns winning over a shallower one's, as git
// reads them. Patterns are parsed by `ignore` (git's own rules: negation, directory-only and anchored patterns,
// escapes), each file's rebased onto the repository's top so that one matcher decides, parents excluding their contents.
import ignore from "ignore";
import { dirname, join, relative, sep } from "node:path";
import { ifMissing } from "../../core/errors.ts";
import type { Runtime } from "../../runtime/types.ts";

/**
 * The files of `files` (absolute, under `root`) that a .gitignore of their repository ignores. Without a repository
 * (no `.git` from `root` up), only the .gitignore files from `root` down apply.
 */
export async function gitignoredFiles(runtime: Runtime, root: string, files: readonly string[]): Promise<Set<string>> {
  const top = (await repositoryTop(runtime, root)) ?? root;
  const dirs = new Set<string>();
  for (const file of files) {
    for (let dir = dirname(file); (dir === top || dir.startsWith(`${top}${sep}`)) && !dirs.has(dir); dir = dirname(dir)) {
      dirs.add(dir);
      if (dir === top) break;
    }
  }
  // Shallower files first: in one matcher the last pattern that matches decides, as a deeper .gitignore does in git.
  const ordered = [...dirs].sort((a, b) => a.split(sep).length - b.split(sep).length || (a < b ? -1 : 1));
  const matcher = ignore();
  let any = false;
  for (const dir of ordered) {
    const text = await runtime.readText(join(dir, ".gitignore")).catch(ifMissing(null));
    if (text === null) continue;
    const prefix = relative(top, dir).split(sep).join("/");
    const patterns = text.split(/\r?\n/).flatMap((line) => rebased(line, prefix) ?? []);
    if (patterns.length) any = true;
    matcher.add(patterns);
  }
  const ignored = new Set<string>();
  if (!any) return ignored;
  for (const file of files) {
    const path = relative(top, file).split(sep).join("/");
    if (path && !path.startsWith("..") && matcher.ignores(path)) ignored.add(file);
  }
  return ignored;
}

/** The nearest directory from `dir` up that holds `.git` (a directory, or a worktree's file); null outside a repository. */
async function repositoryTop(runtime: Runtime, dir: string): Promise<string | null> {
  for (let at = dir; ; at = dirname(at)) {
    if (await runtime.stat(join(at, ".git"))) return at;
    if (dirname(at) === at) return null;
  }
}

/**
 * One .gitignore line as a pattern relative to the repository's top (`prefix`: its directory from there; "" at the
 * top); null for blank lines and comments. A pattern with a slash before its end is anchored to its file's directory;
 * one without matches at any depth below it.
 */
export function rebased(line: string, prefix: string): string | null {
  // Trailing spaces are dropped unless escaped with a backslash.
  const trimmed = line.replace(/(?<!\\)[ \t]+$/, "");
  if (!trimmed || trimmed.startsWith("#")) return null;
  if (!prefix) return trimmed;
  const negated = trimmed.startsWith("!");
  const pattern = negated ? trimmed.slice(1) : trimmed;
  const anchored = pattern.replace(/\/$/, "").includes("/");
  return `${negated ? "!" : ""}${prefix}/${anchored ? pattern.replace(/^\//, "") : `**/${pattern}`}`;
}
