import { relativeToRoot } from "../core/paths.ts";
import { CONFIG_FILE, projectRootAt } from "../service/project/project.ts";
import { pathApi } from "../runtime/path-api.ts";
import type { Runtime } from "../runtime/types.ts";
import type { CliIo } from "./io.ts";

/** stat, or null for any path it fails on: refusing a bad path (too long, a loop) is the check's job, with its message. */
function statOrNull(runtime: Runtime, path: string) {
  return runtime.stat(path).catch(() => null);
}

/**
 * The root for `check <paths…>` without --root: when every path lies outside the working directory's project (a
 * check of another project), the project those paths are in, if they share one; else undefined (the usual search
 * from the working directory).
 */
export async function rootOfPaths(runtime: Runtime, positionals: readonly string[]): Promise<string | undefined> {
  if (!positionals.length || runtime.env("SIGNALINT_PROJECT_ROOT")?.trim()) return undefined;
  const { dirname, resolve } = pathApi(runtime);
  const cwd = runtime.cwd();
  const here = await projectRootAt(runtime, cwd);
  const absolute = positionals.map((path) => resolve(cwd, path));
  if (absolute.some((path) => relativeToRoot(here, path) !== null)) return undefined;
  const roots = new Set<string>();
  try {
    for (const path of absolute) roots.add(await projectRootAt(runtime, (await statOrNull(runtime, path))?.isDirectory ? path : dirname(path)));
  } catch {
    // A path the file system refuses (too long): the check refuses it with its own message.
    return undefined;
  }
  // A path that contains the working directory's project (`check ../..`) is outside it, not another project: refused.
  if ([...roots].some((root) => relativeToRoot(root, here) !== null)) return undefined;
  return roots.size === 1 ? [...roots][0] : undefined;
}

/**
 * Say which root a check used when that may surprise: the root came from the paths (another project), or a checked
 * directory has a signalint.config.json of its own, which only a check with that directory as its root reads.
 */
export async function noteRoot(io: CliIo, root: string, paths: readonly string[], from: "option" | "paths" | "cwd"): Promise<void> {
  const { join } = pathApi(io.runtime);
  if (from === "paths") io.runtime.writeStderr(`signalint-mcp: checking the project at ${root} (the paths are outside the working directory's project)\n`);
  for (const path of paths) {
    if (path === "." || !(await statOrNull(io.runtime, join(root, path, CONFIG_FILE)))) continue;
    io.runtime.writeStderr(
      `signalint-mcp: ${path} has its own ${CONFIG_FILE}, but it is checked as part of the project at ${root}, whose settings apply; ` +
        `to check it as a project of its own, run: signalint-mcp check --root ${path}\n`,
    );
  }
}

/** Where CI tools resolve paths (the repository root) and the project root's path inside it ("" or "app/"). */
export interface RepositoryBase {
  root: string;
  prefix: string;
}

/**
 * The repository a project is in: the nearest directory at or above the project root with `.git` (a directory, or
 * a worktree's file), else GITHUB_WORKSPACE when it holds the project, else the project root itself. GitHub resolves
 * annotation paths and SARIF locations against the repository root, whatever directory the check ran on.
 */
export async function repositoryBase(runtime: Runtime, projectRoot: string): Promise<RepositoryBase> {
  const { dirname, join } = pathApi(runtime);
  const base = (root: string) => repositoryPrefix(root, projectRoot);
  for (let dir = projectRoot; ; dir = dirname(dir)) {
    if (await runtime.stat(join(dir, ".git"))) return base(dir) ?? { root: projectRoot, prefix: "" };
    if (dirname(dir) === dir) break;
  }
  const workspace = runtime.env("GITHUB_WORKSPACE")?.trim();
  return (workspace && base(workspace)) || { root: projectRoot, prefix: "" };
}

/** The project root's place in a repository: the repository root and the prefix ("" or "app/"); null when outside it. */
export function repositoryPrefix(repositoryRoot: string, projectRoot: string): RepositoryBase | null {
  const relative = relativeToRoot(repositoryRoot, projectRoot);
  return relative === null ? null : { root: repositoryRoot, prefix: relative === "." ? "" : `${relative}/` };
}
