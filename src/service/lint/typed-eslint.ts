// Whether ESLint lints files with type information, asked of the project's own ESLint (engines/eslint-types.ts) in
// one process per check for the files not asked before, and remembered per file in the result cache under the file's
// config inputs (a config edit asks again).
import { join } from "node:path";
import type { RawIssue } from "../../core/issues.ts";
import { ESLINT_TYPES_LAUNCHER, parseTypedAnswers } from "../../engines/eslint-types.ts";
import { writeIfChanged } from "../../engines/tsconfig.ts";
import type { ResolvedEngine } from "../../engines/types.ts";
import type { EngineJob, LintedDependents } from "../job/engine-job.ts";
import { isWithin } from "../../core/paths.ts";

/** Questions asked by this process so far (each names its own request file). */
let requests = 0;

/** How ESLint is launched for the question: flat or legacy configs, and the flags its lint runs get. */
export interface EslintMode {
  flat: boolean;
  flags: string[];
  env: Record<string, string>;
}

/**
 * One boolean per file (absolute): linted with type information. Null when ESLint could not tell (a config that does
 * not load, a timeout): the caller treats the files as typed and keeps nothing.
 */
export async function eslintTypeInformation(job: EngineJob, resolved: ResolvedEngine, mode: EslintMode, files: readonly string[]): Promise<boolean[] | null> {
  // ESLint's entry runs through a node (never a native binary): the launcher runs in its place.
  if (!resolved.packageDir || resolved.prefixArgs.at(-1) !== resolved.path) return null;
  const launcher = join(job.cacheDir, "eslint", `types-${job.runtime.sha256(ESLINT_TYPES_LAUNCHER).slice(0, 12)}.cjs`);
  // One request file per question: two checks of a daemon may ask at once.
  const request = join(job.cacheDir, "eslint", `request-${job.runtime.pid}-${++requests}.json`);
  await job.runtime.mkdirp(join(job.cacheDir, "eslint"));
  await writeIfChanged(job.runtime, launcher, ESLINT_TYPES_LAUNCHER);
  await job.runtime.writeFileAtomic(request, JSON.stringify({ files, flat: mode.flat, flags: mode.flags }));
  try {
    const result = await job.runtime.spawn(resolved.command, [...resolved.prefixArgs.slice(0, -1), launcher, resolved.packageDir, request], {
      cwd: job.root,
      timeoutMs: job.timeoutMs,
      maxOutputBytes: 16 * 1024 * 1024,
      env: { NO_COLOR: "1", FORCE_COLOR: "0", ...mode.env },
      signal: job.signal,
    });
    return result.exitCode === 0 ? parseTypedAnswers(result.stdout, files.length) : null;
  } finally {
    // Best effort: a request file left in the cache directory is overwritten by the next one.
    await job.runtime.removeFile(request).catch(() => {});
  }
}

/** How a file's answer is kept in the result cache: an untyped file is an empty entry, a typed one this one issue. */
export const TYPED_MARK: RawIssue = { file: "", line: 1, col: 1, engine: "eslint", rule: "type-information", severity: "warning", message: "", fixable: false };

/** What an edit's ESLint run needs to pick the files importing the named ones it lints too. */
export interface DependentsJob extends EngineJob {
  /** At most this many are linted (signalint.config.json typedLintDependents). */
  typedLintDependents: number;
  /** The paths the project's lint scripts lint (root-relative; absent: the whole project), see lint/eslint-scope.ts. */
  lintScope?: string[];
}

/**
 * The files importing `named` (root-relative: the files this ESLint run lints) that ESLint lints with them, nearest
 * first: inside the project and its lint scripts' paths, not ignored, of a kind ESLint lints (`accepts`), at most
 * typedLintDependents; the rest are `more`. Waits for tsc's programs to say (their first answers). A named file no
 * program holds has importers no program knows of: `unknown` says so (the held files' importers are still linted).
 * Null outside an edit's check.
 */
export async function dependentsToLint(job: DependentsJob, accepts: (path: string) => boolean, named: readonly string[]): Promise<LintedDependents | null> {
  if (!job.dependents) return null;
  const answer = await job.dependents.answer;
  if ("unknown" in answer) return { named: [...named], files: [], more: [], unknown: answer.unknown, unknownFor: [...named] };
  const asked = new Set(named);
  const inScope = (path: string) => !job.lintScope || job.lintScope.some((allowed) => isWithin(path, allowed));
  // The project's plain mapper: the check's own counts what it drops as issues filtered out, and an importer is none.
  const files = answer.files
    .flatMap((file) => job.dependents?.toRelative(file) ?? [])
    .filter((path) => !asked.has(path) && !path.split("/").includes("node_modules") && !job.ignored(path) && accepts(path) && inScope(path));
  const budget = job.typedLintDependents;
  const unheld = named.filter((path) => !answer.held.has(join(job.root, path)));
  return {
    named: [...named],
    files: files.slice(0, budget),
    more: files.slice(budget),
    ...(unheld.length ? { unknown: notHeld(unheld), unknownFor: unheld } : {}),
  };
}

/** Why the importers of named files no program of the check holds are not known. */
function notHeld(paths: readonly string[]): string {
  const shown = `${paths.slice(0, 3).join(", ")}${paths.length > 3 ? `, … (${paths.length - 3} more)` : ""}`;
  return `no tsc program this check ran holds ${shown}, so no program can tell which files import ${paths.length === 1 ? "it" : "them"}`;
}
