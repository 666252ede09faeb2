import picomatch from "picomatch/posix.js";

// picomatch/posix never looks at the host platform (plain picomatch asks the runtime for it): ignore globs and the
// paths they match are POSIX-style relative paths on every OS.
const OPTIONS = { dot: true, windows: false } as const;

/**
 * Compile one ignore glob (picomatch syntax: `*`, `**`, `?`, `[ab]`, `{a,b}`, extglobs) to a predicate over POSIX
 * relative paths. A pattern without a slash matches at any depth and a matched directory matches everything inside
 * it, as in .gitignore.
 */
export function globMatcher(glob: string): (path: string) => boolean {
  const pattern = glob.replace(/^\.\//, "").replace(/\/+$/, "");
  const anchored = pattern.includes("/") ? pattern : `**/${pattern}`;
  return picomatch([anchored, `${anchored}/**`], OPTIONS);
}

/**
 * A predicate that is true when a relative path is ignored. Globs apply in order and the last one matching a path
 * decides, as in .gitignore: a glob starting with `!` (other than the extglob `!(…)`) re-includes what an earlier one
 * ignored.
 */
export function compileIgnore(globs: readonly string[]): (path: string) => boolean {
  const compiled = globs.map((glob) =>
    /^!(?!\()/.test(glob) ? { include: true, matches: globMatcher(glob.slice(1)) } : { include: false, matches: globMatcher(glob) },
  );
  return (path) => {
    for (let index = compiled.length - 1; index >= 0; index--) {
      const rule = compiled[index] as (typeof compiled)[number];
      if (rule.matches(path)) return !rule.include;
    }
    return false;
  };
}
