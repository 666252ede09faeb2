import { dirname, join, resolve } from "node:path";
import type { Runtime } from "../../runtime/types.ts";

// Where the project is, apart from project.ts (and its zod config schema): the stdio front (cli/front.ts) finds the
// config file behind tools/list before the rest of Signalint is loaded.

export const CONFIG_FILE = "signalint.config.json";

/**
 * The project root: --root, else SIGNALINT_PROJECT_ROOT, else the nearest directory at or above the working
 * directory with a signalint.config.json, else the nearest with a package.json or .git, else the working directory.
 */
export async function findRoot(runtime: Pick<Runtime, "cwd" | "env" | "stat">, explicit: string | undefined): Promise<string> {
  const given = explicit?.trim() || runtime.env("SIGNALINT_PROJECT_ROOT")?.trim();
  if (given) return resolve(runtime.cwd(), given);
  return projectRootAt(runtime, runtime.cwd());
}

/** The project `dir` is in: the nearest directory at or above it with signalint.config.json, else package.json or .git, else `dir`. */
export async function projectRootAt(runtime: Pick<Runtime, "cwd" | "stat">, dir: string): Promise<string> {
  const start = resolve(runtime.cwd(), dir);
  for (const markers of [[CONFIG_FILE], ["package.json", ".git"]]) {
    for (let at = start; ; at = dirname(at)) {
      for (const marker of markers) if (await runtime.stat(join(at, marker))) return at;
      if (dirname(at) === at) break;
    }
  }
  return start;
}
