import { basename, dirname, join, resolve } from "node:path";
import { relativeToRoot } from "../../core/paths.ts";
import { ESLINT_FLAT_CONFIGS, eslintAccepts } from "../../engines/eslint.ts";
import { eslintInvocations } from "../../engines/eslint-scripts.ts";
import type { Runtime } from "../../runtime/types.ts";
import type { EngineJob, RunnerOutcome } from "../job/engine-job.ts";
import { checkedFiles } from "../job/checked-files.ts";
import { readManifest, workspacePackages } from "../project/workspace.ts";
import { listFiles } from "../project/project-files.ts";
import { ifMissing } from "../../core/errors.ts";
import { ESLINT_LEGACY_CONFIGS, hasFlatEslintConfig } from "./linter-choice.ts";

/** Where the project's own lint scripts run ESLint: root-relative paths, and the `--ext` extensions they add. */
export interface EslintScope {
  paths: string[];
  ext: string[];
  /** The directories the scripts run eslint in (absolute): the root and the workspace packages with such a script. */
  from: string[];
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
  const scope = await scriptedScope(runtime, root);
  return scope === "unscripted" ? null : scope;
}

/** eslintScope, telling "no script runs eslint" ("unscripted") apart from "a script lints the whole project" (null). */
async function scriptedScope(runtime: Runtime, root: string): Promise<EslintScope | null | "unscripted"> {
  const manifest = await readManifest(runtime, root);
  const packages = await workspacePackages(runtime, root, manifest);
  const paths = new Set<string>();
  const ext = new Set<string>();
  const from = new Set<string>();
  let invocations = 0;
  for (const dir of [root, ...packages]) {
    const pkg = dir === root ? manifest : await readManifest(runtime, dir);
    for (const script of Object.values(pkg?.scripts ?? {})) {
      for (const invocation of eslintInvocations(script)) {
        invocations++;
        from.add(dir);
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
  return invocations ? { paths: [...paths].sort(), ext: [...ext].sort(), from: [...from].sort() } : "unscripted";
}

/**
 * Whether ESLint must take each file's config from the file's own directory up (flat configs), not only the root's:
 * ESLint 9 reads the one `eslint.config.*` of its working directory, so a run at the root lints a workspace package's
 * files with the root's config, where the package's own lint (`eslint .` in it: an Nx project's, a package script's)
 * uses the package's. True in an Nx workspace (nx.json) where no script runs eslint and a directory under the root
 * that holds or is under a checked path has a flat config of its own, or when every script that runs eslint runs in a
 * workspace package (none at the root) and one of those packages has its own.
 */
export async function nestedFlatConfigs(job: Pick<EngineJob, "runtime" | "root" | "paths" | "stateDir">, scope: EslintScope | "unscripted"): Promise<boolean> {
  const hasFlatConfig = (dir: string) => hasFlatEslintConfig(job.runtime, dir);
  // Scripts: only when every one runs in a package (none at the root, whose run reads the root's config for all).
  if (scope !== "unscripted") return !scope.from.includes(job.root) && (await Promise.all(scope.from.map(hasFlatConfig))).includes(true);
  // No script: an Nx workspace's projects (a project.json each, nx.json at the root) lint themselves.
  if (!(await isNxWorkspace(job))) return false;
  for (const path of job.paths) {
    // The directories above the checked path, up to (not including) the root...
    for (let dir = dirname(join(job.root, path)); relativeToRoot(job.root, dir) !== "." && relativeToRoot(job.root, dir) !== null; dir = dirname(dir))
      if (await hasFlatConfig(dir)) return true;
    // ...and below it.
    if ((await job.runtime.stat(join(job.root, path)))?.isDirectory !== true) continue;
    const below = await listFiles(job.runtime, join(job.root, path), { accepts: (file) => FLAT_CONFIG_NAMES.has(basename(file)), skip: job.stateDir });
    if ((below ?? []).some((file) => dirname(file) !== job.root)) return true;
  }
  return false;
}

const FLAT_CONFIG_NAMES = new Set(ESLINT_FLAT_CONFIGS);

const LEGACY_CONFIG_NAMES = new Set(ESLINT_LEGACY_CONFIGS);

/** Whether a whole-project check of a flat-config project needs each file's own config (see nestedFlatConfigs), for doctor. */
export async function projectFlatConfigs(job: Pick<EngineJob, "runtime" | "root" | "stateDir">): Promise<boolean> {
  const scope = await scriptedScope(job.runtime, job.root);
  return scope !== null && nestedFlatConfigs({ ...job, paths: ["."] }, scope);
}

/** The directories a legacy-config project's checks also name to ESLint (see nestedLegacyConfigDirs), for doctor. */
export async function eslintProjectDirs(job: Pick<EngineJob, "runtime" | "root" | "stateDir">): Promise<string[]> {
  return (await scriptedScope(job.runtime, job.root)) === "unscripted" ? nestedLegacyConfigDirs({ ...job, paths: ["."] }) : [];
}

/**
 * The directories under the checked paths (root-relative) that hold a legacy `.eslintrc*` of their own, below the
 * root's, in an Nx workspace (nx.json at the root). Its root config ignores everything (`ignorePatterns: ["**\/*"]`) and each project's config
 * ignores nothing again (`"!**\/*"`); its lint is `eslint .` in each project, never one run at the root — which
 * ESLint 8 ends with "all files are ignored", as it never walks into an ignored directory to find the configs below.
 * Named on the command line, each such directory is linted with its own config, as the project's own lint does;
 * anywhere its files are not ignored, ESLint lints each file once however many named paths hold it.
 */
export async function nestedLegacyConfigDirs(job: Pick<EngineJob, "runtime" | "root" | "paths" | "stateDir">): Promise<string[]> {
  if (!(await isNxWorkspace(job))) return [];
  const dirs = new Set<string>();
  for (const path of job.paths) {
    if ((await job.runtime.stat(join(job.root, path)))?.isDirectory !== true) continue;
    const configs = await listFiles(job.runtime, join(job.root, path), { accepts: (file) => LEGACY_CONFIG_NAMES.has(basename(file)), skip: job.stateDir });
    for (const config of configs ?? []) {
      const dir = relativeToRoot(job.root, dirname(config));
      // Not a dot-directory (`eslint .` never walks into one) nor a config that stands alone (`root: true`: a fixture's,
      // which the root's ignores keep out of the project's lint); a trailing "/" keeps `apps/site.com` a directory.
      if (dir === null || dir === "." || dir.split("/").some((part) => part.startsWith("."))) continue;
      if (/["']?root["']?\s*:\s*true\b/.test(await job.runtime.readText(config).catch(ifMissing("")))) continue;
      dirs.add(`${dir}/`);
    }
  }
  return [...dirs].sort();
}

/** An Nx workspace: nx.json at the root (its projects, each with a project.json or package.json, lint themselves). */
async function isNxWorkspace(job: Pick<EngineJob, "runtime" | "root">): Promise<boolean> {
  return (await job.runtime.stat(join(job.root, "nx.json")))?.isFile === true;
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

/** Whether ESLint takes each file's flat config from the file's directory up here (eslintConfigLookupFlag), as the lint scripts run it. */
async function lookupFromFile(
  job: Pick<EngineJob, "runtime" | "root" | "paths" | "stateDir"> & { eslintLegacy?: boolean },
  scope: EslintScope | "unscripted" | null,
) {
  return scope !== null && !job.eslintLegacy && (await nestedFlatConfigs(job, scope));
}

/**
 * The same decision for a caller without a check's scope (a fix of these paths): ESLint's fixes must come from the
 * configs its check used, or a preview would differ from `eslint --fix`.
 */
export async function eslintLookupFromFile(job: Pick<EngineJob, "runtime" | "root" | "paths" | "stateDir"> & { eslintLegacy: boolean }): Promise<boolean> {
  return lookupFromFile(job, await scriptedScope(job.runtime, job.root));
}

/**
 * Run ESLint as the project's lint scripts do: on the checked paths within their scope (with their `--ext`), the
 * whole checked paths when there is no such scope. Files left out are one coverage note — informational only: the
 * project does not lint them either, so they never make a check `error`.
 */
export async function withEslintScope<J extends EngineJob & { eslintLegacy?: boolean; lintScope?: string[] }>(
  job: J,
  run: (scoped: J, ext: string[], configLookupFromFile: boolean) => Promise<RunnerOutcome>,
): Promise<RunnerOutcome> {
  const scope = await scriptedScope(job.runtime, job.root);
  // No script lints: a legacy config's own directories are linted from their own configs too (an Nx workspace's).
  if (scope === "unscripted" && job.eslintLegacy)
    return run({ ...job, paths: [...new Set([...job.paths, ...(await nestedLegacyConfigDirs(job))])] }, [], false);
  const fromFile = await lookupFromFile(job, scope);
  if (scope === null || scope === "unscripted") return run(job, [], fromFile);
  // The files an edit's check lints besides the named ones (their importers) stay inside the same paths.
  const outcome = await run({ ...job, paths: scopedPaths(job.paths, scope), lintScope: scope.paths }, scope.ext, fromFile);
  if (!("ok" in outcome) || !outcome.ok) return outcome;
  const left = outsideScope((await checkedFiles(job)).sources, scope, job.root).filter((file) => eslintAccepts(file));
  return left.length ? { ...outcome, notChecked: [{ reason: OUTSIDE_LINT_SCRIPTS, files: left }] } : outcome;
}
