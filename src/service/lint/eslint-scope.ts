import { resolve } from "node:path";
import { relativeToRoot } from "../../core/paths.ts";
import { eslintAccepts } from "../../engines/eslint.ts";
import { eslintInvocations } from "../../engines/eslint-scripts.ts";
import type { Runtime } from "../../runtime/types.ts";
import type { EngineJob, RunnerOutcome } from "../check/engine-job.ts";
import { checkedFiles } from "../tsc/tsc-coverage.ts";
import { readManifest, workspacePackages } from "../project/workspace.ts";

/** Where the project's own lint scripts run ESLint: root-relative paths, and the `--ext` extensions they add. */
export interface EslintScope {
  paths: string[];
  ext: string[];
}

/** The reason of the coverage note for files no lint script of the project lints. */
export const OUTSIDE_LINT_SCRIPTS = "not linted by ESLint: outside every path the project's lint scripts give eslint (the project does not lint them)";

const GLOB = /[*?{}[\]!]/;

/**
 * The paths the project's scripts (the root's and every workspace package's, each relative to its directory) run
 * `eslint` on, when every invocation names explicit paths: `eslint ./src --ext .ts` → `src`. Null — ESLint runs on
 * the whole project, with its own ignores, as before — when there is no eslint invocation, when one lints the root
 * (`eslint .`, or no path at the root) or names a glob (its files are not a set of directories Signalint can
 * intersect exactly). A package's `eslint .` is that package's directory.
 */
export async function eslintScope(runtime: Runtime, root: string): Promise<EslintScope | null> {
  const manifest = await readManifest(runtime, root);
  const packages = await workspacePackages(runtime, root, manifest);
  const paths = new Set<string>();
  const ext = new Set<string>();
  let invocations = 0;
  for (const dir of [root, ...packages]) {
    const pkg = dir === root ? manifest : await readManifest(runtime, dir);
    for (const script of Object.values(pkg?.scripts ?? {})) {
      for (const invocation of eslintInvocations(script)) {
        invocations++;
        for (const path of invocation.paths.length ? invocation.paths : ["."]) {
          if (GLOB.test(path)) return null;
          const relative = relativeToRoot(root, resolve(dir, path));
          if (relative === ".") return null;
          // A path outside the root, or one that does not exist, lints nothing Signalint checks.
          if (relative !== null && (await runtime.stat(resolve(dir, path))) !== null) paths.add(relative);
        }
        for (const extension of invocation.ext) ext.add(extension);
      }
    }
  }
  return invocations ? { paths: [...paths].sort(), ext: [...ext].sort() } : null;
}

/** `path` is `dir` or below it (root-relative, "/"-separated; "." is the root). */
function within(path: string, dir: string): boolean {
  return dir === "." || path === dir || path.startsWith(`${dir}/`);
}

/**
 * The checked paths narrowed to the scope: a checked path inside a scope path stays; a scope path inside a checked
 * path replaces it. Empty: ESLint has nothing to lint.
 */
export function scopedPaths(checked: readonly string[], scope: EslintScope): string[] {
  const out = new Set<string>();
  for (const path of checked) {
    for (const allowed of scope.paths) {
      if (within(path, allowed)) out.add(path);
      else if (within(allowed, path)) out.add(allowed);
    }
  }
  return [...out].sort();
}

/** Of the files given (absolute), those no path of the scope holds. */
function outsideScope(files: readonly string[], scope: EslintScope, root: string): string[] {
  return files.filter((file) => {
    const relative = relativeToRoot(root, file);
    return relative !== null && !scope.paths.some((allowed) => within(relative, allowed));
  });
}

/**
 * Run ESLint as the project's lint scripts do: on the checked paths within their scope (with their `--ext`), the
 * whole checked paths when there is no such scope. Files left out are one coverage note — informational only: the
 * project does not lint them either, so they never make a check `error`.
 */
export async function withEslintScope<J extends EngineJob>(job: J, run: (scoped: J, ext: string[]) => Promise<RunnerOutcome>): Promise<RunnerOutcome> {
  const scope = await eslintScope(job.runtime, job.root);
  if (scope === null) return run(job, []);
  const outcome = await run({ ...job, paths: scopedPaths(job.paths, scope) }, scope.ext);
  if (!("ok" in outcome) || !outcome.ok) return outcome;
  const left = outsideScope((await checkedFiles(job)).sources, scope, job.root).filter((file) => eslintAccepts(file));
  return left.length ? { ...outcome, notChecked: [{ reason: OUTSIDE_LINT_SCRIPTS, files: left }] } : outcome;
}
