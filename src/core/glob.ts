function escapeRegExp(text: string): string {
  return text.replace(/[.+^${}()|[\]\\]/g, "\\$&");
}

/** Compile a glob (`*`, `**`, `?`) to a RegExp over POSIX relative paths. */
export function globToRegExp(glob: string): RegExp {
  const pattern = glob.replace(/^\.\//, "").replace(/\/+$/, "");
  let source = "";
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i] as string;
    if (char === "*" && pattern[i + 1] === "*") {
      const slashAfter = pattern[i + 2] === "/";
      source += slashAfter ? "(?:.*/)?" : ".*";
      i += slashAfter ? 2 : 1;
    } else if (char === "*") {
      source += "[^/]*";
    } else if (char === "?") {
      source += "[^/]";
    } else {
      source += escapeRegExp(char);
    }
  }
  // A pattern without a slash matches at any depth, like .gitignore.
  const anchor = pattern.includes("/") ? "^" : "(?:^|/)";
  // Matching a directory matches everything inside it.
  return new RegExp(`${anchor}${source}(?:/.*)?$`);
}

/** A predicate that is true when a relative path matches any of the globs. */
export function compileIgnore(globs: readonly string[]): (path: string) => boolean {
  const compiled = globs.map(globToRegExp);
  return (path) => compiled.some((regex) => regex.test(path));
}
