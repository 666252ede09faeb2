/**
 * Where a root script's command runs when a workspace runner stands before it: `pnpm -r exec tsc`, `pnpm --filter
 * docs exec tsc`, `npm exec --workspaces -- tsc`, `yarn workspaces foreach -A exec tsc`, `lerna exec -- tsc`. Null
 * when the command runs where the script runs (no runner, or one that runs it once: `npx tsc`, `pnpm exec tsc`).
 */
export interface WorkspaceRun {
  /** The packages it selects as written (a name, a name glob `@scope/*`, a path `./packages/a`); empty: every package. */
  filters: string[];
}

/** Runner options that take a value and do not select packages (their value is skipped). */
const VALUED = new Set(["--workspace-concurrency", "--reporter", "--parallel-limit", "-j", "--jobs", "--concurrency", "--exclude", "--ignore", "--since"]);

/**
 * A package selection: pnpm's and bun's `--filter x`, `--filter=x`, `-F x`; npm's `--workspace x` (`-w x`: pnpm's
 * `-w` is the workspace root, not a selection); lerna's `--scope`, Yarn's `--include`.
 */
function filterValue(word: string, next: string | undefined, npm: boolean): { value: string; used: number } | null {
  const named = ["--filter", "-F", "--filter-prod", "--scope", "--include", "--workspace", ...(npm ? ["-w"] : [])];
  if (named.includes(word)) return next === undefined ? null : { value: next, used: 2 };
  const inline = /^--(?:filter|filter-prod|scope|include|workspace)=(.+)$/.exec(word);
  return inline ? { value: inline[1] as string, used: 1 } : null;
}

/** A filter as the package it names: `...` and `^` (dependents, dependencies) and `{…}`/`[…]` (git ranges) dropped. */
function cleanFilter(value: string): string {
  return value
    .replace(/^\.\.\.\^?|\^?\.\.\.$/g, "")
    .replace(/^\{(.*)\}$/, "$1")
    .replace(/\[.*\]$/, "");
}

/**
 * The workspace run of the words before a command (`pnpm -r exec`, `npm exec --workspaces --`), or null when they run
 * it once. `-r`/`--recursive`, `--workspaces`/`-ws`, `workspaces foreach` and `lerna exec` select every package; a
 * filter (`--filter`, `-F`, `--workspace`, `-w`, `--scope`, `--include`) selects the packages it names.
 */
export function workspaceRun(before: readonly string[]): WorkspaceRun | null {
  const runners = before.map((word) => word.split(/[\\/]/).pop() ?? word).filter((word) => ["pnpm", "npm", "yarn", "bun", "lerna"].includes(word));
  if (runners.length === 0) return null;
  let recursive = false;
  const filters: string[] = [];
  for (let index = 0; index < before.length; index++) {
    const word = before[index] as string;
    const filter = filterValue(word, before[index + 1], runners.includes("npm"));
    if (filter) {
      const value = cleanFilter(filter.value);
      if (value) filters.push(value);
      index += filter.used - 1;
    } else if (VALUED.has(word)) index++;
    else if (["-r", "--recursive", "--workspaces", "-ws", "foreach"].includes(word)) recursive = true;
    else if (word === "exec" && runners.includes("lerna")) recursive = true;
  }
  // `yarn workspace <name> exec`: one package, named.
  const yarnWorkspace = before.indexOf("workspace");
  if (yarnWorkspace >= 0 && before[yarnWorkspace + 1]) filters.push(before[yarnWorkspace + 1] as string);
  return recursive || filters.length ? { filters } : null;
}
