// Which files a check is about: the walk of the checked paths every runner shares (tsc's candidates, ESLint's scope,
// the coverage of a mix of engines), once per check.
import { join, relative } from "node:path";
import { ifMissing } from "../../core/errors.ts";
import type { EngineJob } from "./engine-job.ts";

/** Files TypeScript checks: TS and JS sources, not declaration files (an inferred program skips lib checks). */
const SOURCE = /\.(?:[cm]?tsx?|[cm]?jsx?)$/;
const DECLARATION = /\.d\.[cm]?ts$/;
const TYPESCRIPT = /\.[cm]?tsx?$/;
/** Directories a walk never enters: dependencies and the usual build outputs (as for nested tsconfigs). */
const SKIPPED_DIRS = new Set(["node_modules", "dist", "build", "out", "coverage"]);

/** True for a file that makes tsc apply (TypeScript, not JavaScript). */
export function isTypeScriptFile(path: string): boolean {
  return TYPESCRIPT.test(path) && !DECLARATION.test(path);
}

/** Files no engine reads as TypeScript: single-file components and MDX (vue-tsc checks .vue when the project runs it). */
const FRAMEWORK = /\.(?:vue|svelte|astro|mdx)$/;

/**
 * The files under the checked paths a check is about: TS/JS sources and framework files (.vue, .svelte, .astro, .mdx,
 * and an Angular workspace's .html templates).
 */
export interface CheckedFiles {
  sources: string[];
  framework: string[];
  /** The files the request named by path (absolute), rather than found under a named directory. */
  named: string[];
}

/** What the walk reads of a job. */
type WalkInputs = Pick<EngineJob, "runtime" | "root" | "stateDir" | "paths" | "ignored">;

/** One walk per check: every engine job of a check shares its `paths` array. */
const walks = new WeakMap<readonly string[], Promise<CheckedFiles>>();

/**
 * The TS/JS and framework files under the checked paths (absolute, sorted): a named file as it is, directories walked
 * skipping node_modules, build outputs (dist, build, out, coverage), dot directories, the state directory and files
 * matched by the config's `ignore`.
 */
export function checkedFiles(job: WalkInputs): Promise<CheckedFiles> {
  const known = walks.get(job.paths);
  if (known) return known;
  const walk = walkChecked(job);
  walks.set(job.paths, walk);
  return walk;
}

async function walkChecked(job: WalkInputs): Promise<CheckedFiles> {
  const sources: string[] = [];
  const framework: string[] = [];
  const named: string[] = [];
  // An Angular workspace's templates are type-checked by the Angular compiler (ng build), never by tsc.
  const templates = (await job.runtime.stat(join(job.root, "angular.json")))?.isFile === true;
  const visit = (path: string) => {
    if (job.ignored(relative(job.root, path).replace(/\\/g, "/"))) return;
    if (SOURCE.test(path) && !DECLARATION.test(path)) sources.push(path);
    else if (FRAMEWORK.test(path) || (templates && path.endsWith(".html"))) framework.push(path);
  };
  for (const path of job.paths) {
    const start = path === "." ? job.root : join(job.root, path);
    const info = await job.runtime.stat(start);
    if (info?.isFile) {
      named.push(start);
      visit(start);
      continue;
    }
    const queue = info?.isDirectory ? [start] : [];
    while (queue.length) {
      const current = queue.pop() as string;
      for (const entry of await job.runtime.readDir(current).catch(ifMissing([]))) {
        const child = join(current, entry.name);
        if (entry.isDirectory) {
          if (!SKIPPED_DIRS.has(entry.name) && !entry.name.startsWith(".") && child !== job.stateDir) queue.push(child);
        } else if (entry.isFile || entry.isSymlink) visit(child);
      }
    }
  }
  return { sources: [...new Set(sources)].sort(), framework: [...new Set(framework)].sort(), named: [...new Set(named)].sort() };
}

/** The TS/JS files under the checked paths (absolute, sorted). */
export async function candidateFiles(job: EngineJob): Promise<string[]> {
  return (await checkedFiles(job)).sources;
}
