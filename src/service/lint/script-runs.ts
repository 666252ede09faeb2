import { relativeToRoot } from "../../core/paths.ts";
import type { EngineJob, RunnerOutcome, Unlinted } from "../job/engine-job.ts";
import { checkedFiles } from "../job/checked-files.ts";
import { scopedPaths } from "./eslint-scope.ts";

/** One place a lint script runs a linter: the directory it runs in (absolute) and what it lints there (root-relative). */
export interface ScriptRun {
  dir: string;
  paths: readonly string[];
}

/** What a linter's runs as the scripts run it add up to, besides its issues: how to say it, and what no script lints. */
export interface ScriptRunsOptions<R extends ScriptRun> {
  /** Whether the linter lints a file of this kind (a file of another kind no script lints is not the linter's to note). */
  accepts: (path: string) => boolean;
  /** The reason of the coverage note for the files of its kind no script lints (informational). */
  outside: string;
  /** The engine's message: which scripts were followed. */
  message: string;
  /** The checked paths one run lints (default: those within its paths). */
  scoped?: (paths: readonly string[], each: R) => readonly string[];
  /** Runs the project's script makes with rules this engine cannot run here: the note for their files (never clean). */
  unlinted?: { runs: (each: R) => boolean; reason: string; linter: string };
}

/** The issue's identity, so a file two runs lint (a root script's and a package's) reports each finding once. */
const issueKey = (issue: { file: string; line: number; col: number; rule: string; message: string }) =>
  `${issue.file}\0${issue.line}\0${issue.col}\0${issue.rule}\0${issue.message}`;

/**
 * Run a linter once per script run (Biome's and oxlint's scopes): from each run's directory on the checked paths
 * within its paths, each finding once, the first failure as the outcome; the files of the linter's kind that no run's
 * paths hold are one coverage note — informational: the project does not lint them either.
 */
export async function runAsScripts<J extends EngineJob, R extends ScriptRun>(
  job: J,
  runs: readonly R[],
  options: ScriptRunsOptions<R>,
  run: (scoped: J, each: R) => Promise<RunnerOutcome>,
): Promise<RunnerOutcome> {
  const issues = new Map<string, Extract<RunnerOutcome, { ok: true }>["issues"][number]>();
  const failures: NonNullable<Extract<RunnerOutcome, { ok: true }>["failures"]> = [];
  const cache = { hits: 0, misses: 0 };
  // Every run's reads (an engine found on PATH with no version names its executable there): null once one has none.
  let reads: string[] | null = [];
  // The checked paths of the runs whose script asks rules this engine cannot run here.
  const short: string[] = [];
  for (const each of runs) {
    const scoped = options.scoped ? options.scoped(job.paths, each) : scopedPaths(job.paths, { paths: [...each.paths], ext: [], from: [] });
    if (scoped.length === 0) continue;
    if (options.unlinted?.runs(each)) short.push(...scoped);
    const outcome = await run({ ...job, paths: [...scoped] }, each);
    if (!("ok" in outcome) || !outcome.ok) return outcome;
    for (const issue of outcome.issues) issues.set(issueKey(issue), issue);
    failures.push(...(outcome.failures ?? []));
    cache.hits += outcome.cache?.hits ?? 0;
    cache.misses += outcome.cache?.misses ?? 0;
    reads = reads && outcome.reuse ? [...reads, ...outcome.reuse.reads] : null;
  }
  const allowed = runs.flatMap((each) => each.paths);
  const { sources } = await checkedFiles(job);
  const left = sources.filter((file) => {
    const path = relativeToRoot(job.root, file);
    return path !== null && options.accepts(path) && !allowed.some((dir) => within(path, dir));
  });
  const unlintedFiles = sources.filter((file) => {
    const path = relativeToRoot(job.root, file);
    return path !== null && options.accepts(path) && short.some((dir) => within(path, dir));
  });
  const unlinted: Unlinted | null =
    options.unlinted && unlintedFiles.length ? { reason: options.unlinted.reason, files: unlintedFiles, linter: options.unlinted.linter } : null;
  return {
    ok: true,
    issues: [...issues.values()],
    ...(failures.length ? { failures } : {}),
    cache,
    message: options.message,
    ...(left.length ? { notChecked: [{ reason: options.outside, files: left }] } : {}),
    ...(unlinted ? { unlinted } : {}),
    ...(reads ? { reuse: { reads: [...new Set(reads)] } } : {}),
  };
}

/** Whether a root-relative path lies in a root-relative directory ("." the root). */
export function within(path: string, dir: string): boolean {
  return dir === "." || path === dir || path.startsWith(`${dir}/`);
}
