import { relative, resolve } from "node:path";
import { relativeToRoot } from "../../core/paths.ts";
import { biomeAccepts } from "../../engines/biome.ts";
import { biomeInvocations } from "../../engines/biome-scripts.ts";
import type { Runtime } from "../../runtime/types.ts";
import type { EngineJob, RunnerOutcome } from "../job/engine-job.ts";
import { readManifest, selectPackages, workspacePackages } from "../project/workspace.ts";
import { runAsScripts, within } from "./script-runs.ts";

/** One place the project's scripts run Biome: the directory it runs in (absolute) and what it lints there (root-relative). */
export interface BiomeRun {
  dir: string;
  paths: string[];
}

/** The reason of the coverage note for files no Biome script of the project lints. */
export const OUTSIDE_BIOME_SCRIPTS = "not linted by Biome: outside every path the project's lint scripts give biome (the project does not lint them)";

const GLOB = /[*?{}[\]!]/;

/**
 * Where the project's scripts (the root's and every workspace package's) run `biome check|lint|ci`, each from its
 * own directory with its own config, as `npm run lint` in that package does. Null — Biome runs once from the root on
 * the checked paths, as before — when no script runs Biome, when a root script lints the root (`biome check .`, or no
 * path) or when a path is a glob.
 */
export async function biomeRuns(runtime: Runtime, root: string): Promise<BiomeRun[] | null> {
  const manifest = await readManifest(runtime, root);
  const packages = await workspacePackages(runtime, root, manifest);
  const runs = new Map<string, Set<string>>();
  for (const dir of [root, ...packages]) {
    const pkg = dir === root ? manifest : await readManifest(runtime, dir);
    for (const script of Object.values(pkg?.scripts ?? {})) {
      for (const invocation of biomeInvocations(script)) {
        const where = invocation.packages && dir === root ? await selectPackages(runtime, root, packages, invocation.packages.filters) : [dir];
        for (const at of where) {
          for (const path of invocation.paths.length ? invocation.paths : ["."]) {
            if (GLOB.test(path)) return null;
            const target = relativeToRoot(root, resolve(at, path));
            if (target === ".") return null;
            // A path outside the root, or one that does not exist, lints nothing Signalint checks.
            if (target === null || (await runtime.stat(resolve(at, path))) === null) continue;
            runs.set(at, (runs.get(at) ?? new Set()).add(target));
          }
        }
      }
    }
  }
  if (runs.size === 0) return null;
  return [...runs].map(([dir, paths]) => ({ dir, paths: [...paths].sort() })).sort((a, b) => (a.dir < b.dir ? -1 : 1));
}

/** `path` is `dir` or below it (root-relative, "/"-separated). */

/**
 * The directory Biome runs from for a root-relative file, as its check does (withBiomeScope, of biomeRuns): the first
 * script's directory whose paths hold it, else the root. A fix asked from there uses the config the check used.
 */
export function biomeDirOf(runs: readonly BiomeRun[] | null, root: string, file: string): string {
  return runs?.find((run) => run.paths.some((path) => within(file, path)))?.dir ?? root;
}

/**
 * Run Biome as the project's lint scripts do: from each directory a script runs it in, on the checked paths within
 * that script's paths; once from the root on the checked paths when no script gives such a scope (biomeRuns). Files
 * no script lints are one coverage note — informational: the project does not lint them either (a docs package
 * without a lint script, build output such as dist/*.d.ts that a nested config would re-include).
 */
export async function withBiomeScope<J extends EngineJob>(job: J, run: (scoped: J, cwd: string) => Promise<RunnerOutcome>): Promise<RunnerOutcome> {
  const runs = await biomeRuns(job.runtime, job.root);
  if (runs === null) return run(job, job.root);
  const where = runs.map(({ dir }) => relative(job.root, dir).replace(/\\/g, "/") || ".").join(", ");
  return runAsScripts(
    job,
    runs,
    { accepts: biomeAccepts, outside: OUTSIDE_BIOME_SCRIPTS, message: `biome run as the lint scripts run it, from ${where}` },
    (scoped, each) => run(scoped, each.dir),
  );
}
