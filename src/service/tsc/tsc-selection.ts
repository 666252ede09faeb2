import { dirname, relative } from "node:path";
import type { ResolvedEngine } from "../../engines/types.ts";
import type { TypeChecker } from "../../engines/tsc-scripts.ts";
import { NO_PROGRAM, type NotCheckedFiles } from "../job/engine-job.ts";
import { isTypeScriptFile, type CheckScope, type CoverageJob, type TsconfigCoverage } from "./tsc-coverage.ts";
import type { ProgramChoice } from "./tsc-programs.ts";

/** One tsconfig to run in a check, with the type-checker that runs it. */
export interface ProgramRun {
  config: string;
  tool: TypeChecker;
}

/** What a check runs: the configs, and the candidate files none of their listings includes (imports may still reach them). */
export interface Selection {
  runs: ProgramRun[];
  outside: string[];
}

const within = (dir: string, path: string) => {
  const rel = relative(dir, path);
  return rel === "" || (!rel.startsWith("..") && !/^[a-zA-Z]:/.test(rel) && !rel.startsWith("/"));
};

/**
 * The configs a check runs. A check of the whole project runs every chosen program. A narrower one runs, for each
 * candidate file, the config of every chosen program (or the referenced project within it) that lists the file, or
 * whose last run imported it, and the referenced projects that reference the one listing it (a file of a solution's
 * package breaks the packages that import it); for each checked directory, the chosen and referenced configs inside it
 * (their config errors); and for each file, the configs of the nearest directory above it with any (their programs may import it). A config another run
 * reaches through references is not run twice.
 */
export async function selectRuns(
  job: CoverageJob & { tsconfigs: TsconfigCoverage },
  resolved: ResolvedEngine,
  input: { choice: ProgramChoice; sources: readonly string[]; framework: readonly string[]; scope: CheckScope },
): Promise<Selection> {
  const { choice, sources, scope } = input;
  const whole = job.paths.includes(".");
  const runs = new Map<string, TypeChecker>();
  const add = (config: string, tool: TypeChecker = "tsc") => {
    if (!runs.has(config) || tool !== "tsc") runs.set(config, tool);
  };
  const outside: string[] = [];
  // The listings as they are: a file one of them includes needs no per-file question (a project of thousands of files).
  const listed: { member: string; files: ReadonlySet<string> | null }[] = [];
  if (whole) for (const program of choice.programs) listed.push(...(await job.tsconfigs.listings(job, resolved, program.config, scope)));
  const known = (file: string) => listed.some(({ member, files }) => (files === null ? within(dirname(member), file) : files.has(file)));
  for (const file of sources) {
    if (whole && known(file)) continue;
    let included = false;
    for (const program of choice.programs) {
      const member = await job.tsconfigs.memberIncluding(job, resolved, program.config, file, scope);
      if (member) included = true;
      if (whole) continue;
      if (member) add(member, member === program.config ? program.tool : "tsc");
      // A program that imports the file (its last run said so) checks it too, with its own options: an Angular
      // app's tsconfig.app.json lists only main.ts, and a component's error there is one the root's config misses.
      else if (job.tsconfigs.programImports(program.config, file)) add(program.config, program.tool);
      // A referenced project's file: the projects that reference it see its exports change (a rename there breaks them).
      if (member && member !== program.config) for (const config of await dependents(job, resolved, { solution: program.config, member }, scope)) add(config);
    }
    if (!included) outside.push(file);
  }
  const configs = [
    ...choice.programs.map((program) => ({ config: program.config, tool: program.tool })),
    ...choice.reached.map(({ config }) => ({ config, tool: "tsc" as const })),
  ];
  if (whole) for (const program of choice.programs) add(program.config, program.tool);
  else {
    for (const path of job.paths) {
      const dir = `${job.root}/${path}`;
      for (const { config, tool } of configs) if (within(dir, config)) add(config, tool);
    }
    // A .vue (.svelte) file is checked by the vue-tsc (svelte-check) programs above it (TypeScript's own listing leaves them out).
    for (const file of input.framework) {
      const tool = file.endsWith(".vue") ? "vue-tsc" : file.endsWith(".svelte") ? "svelte-check" : null;
      for (const program of choice.programs) if (tool && program.tool === tool && within(dirname(program.config), file)) add(program.config, program.tool);
    }
    // Every config of the nearest directory above each file (tsconfig.app.json beside tsconfig.spec.json): a program
    // of one may import the file though only the other lists it, and a warm run that would say so may not have been.
    for (const file of sources) {
      const above = configs.filter(({ config }) => within(dirname(config), file));
      const nearest = Math.max(...above.map(({ config }) => dirname(config).length));
      for (const { config, tool } of above) if (dirname(config).length === nearest) add(config, tool);
    }
  }
  // A config reached through another run's references is already checked by that run (tsc -b); a checker's run
  // (vue-tsc, svelte-check) is `-p`, which checks no reference.
  const reached = new Set<string>();
  for (const [config, tool] of runs) {
    if (tool === "vue-tsc" || tool === "svelte-check") continue;
    for (const reachable of await job.tsconfigs.closure(job, resolved, config, scope)) if (reachable !== config) reached.add(reachable);
  }
  const kept = [...runs].filter(([config]) => !reached.has(config)).map(([config, tool]) => ({ config, tool }));
  return { runs: kept.sort((a, b) => (a.config < b.config ? -1 : 1)), outside };
}

/**
 * The projects of a solution that reference `member` (directly or through others): an edit of its files can break
 * theirs, so a check of those files builds them too (`tsc -b` of one builds the member first). The solution's own
 * config is one only when it lists files itself.
 */
async function dependents(
  job: CoverageJob & { tsconfigs: TsconfigCoverage },
  resolved: ResolvedEngine,
  { solution, member }: { solution: string; member: string },
  scope: CheckScope,
): Promise<string[]> {
  const found: string[] = [];
  for (const { member: config, files } of await job.tsconfigs.listings(job, resolved, solution, scope)) {
    if (config === member || (config === solution && files !== null && files.size === 0)) continue;
    if ((await job.tsconfigs.closure(job, resolved, config, scope)).has(member)) found.push(config);
  }
  return found;
}

/** What the reason of a framework file's note says, per extension. */
const FRAMEWORK_WHY: Record<string, string> = {
  vue: "no vue-tsc run in the project's scripts type-checks them",
  svelte: "no svelte-check run in the project's scripts type-checks them",
  astro: "Signalint does not run astro check",
  mdx: "no engine type-checks MDX",
  html: "Angular templates: the Angular compiler type-checks them in ng build, and Signalint runs tsc",
};

/** Said of .svelte files when svelte-check is installed but no script runs it: how to have it run. */
const SVELTE_CHECK_OFF =
  'svelte-check is installed but no package.json script runs it: add one (`"check": "svelte-check --tsconfig ./tsconfig.json"`) and Signalint runs it on that program';

/** The directories of the programs a framework checker (vue-tsc, svelte-check) covers, per file extension. */
export interface CheckerDirs {
  vue?: readonly string[];
  svelte?: readonly string[];
}

/**
 * Said of framework files whose program the project's scripts run with their checker, when that run gave no answer
 * (a generated config missing in a fresh clone, a failure, a timeout): the script does check them, this check could not.
 */
const CHECKER_FAILED = (tool: string) => `the project's ${tool} run on their program did not answer: engines.tsc says why`;

/**
 * The coverage notes of a tsc run: TypeScript files no chosen program includes or imports, and framework files
 * (.vue outside every program vue-tsc ran, .svelte outside every program svelte-check ran, .astro, .mdx). `failed`:
 * the programs the checker was to run that gave no answer; their files say so rather than that no script checks them.
 */
export function coverageNotes(
  outside: readonly string[],
  framework: readonly string[],
  checkedDirs: CheckerDirs = {},
  options: { svelteInstalled?: boolean; failed?: CheckerDirs } = {},
): NotCheckedFiles[] {
  const notes: NotCheckedFiles[] = [];
  const typescript = outside.filter(isTypeScriptFile);
  if (typescript.length) notes.push({ reason: NO_PROGRAM, files: typescript });
  const byReason = new Map<string, string[]>();
  for (const file of framework) {
    const extension = file.slice(file.lastIndexOf(".") + 1);
    const of = (dirs: CheckerDirs = {}) => (extension === "vue" ? dirs.vue : extension === "svelte" ? dirs.svelte : undefined);
    if (of(checkedDirs)?.some((dir) => within(dir, file))) continue;
    const failed = of(options.failed)?.some((dir) => within(dir, file));
    const why = failed
      ? CHECKER_FAILED(extension === "vue" ? "vue-tsc" : "svelte-check")
      : extension === "svelte" && options.svelteInstalled
        ? SVELTE_CHECK_OFF
        : (FRAMEWORK_WHY[extension] ?? "no engine reads them");
    const reason = `not type-checked: .${extension} files (${why})`;
    byReason.set(reason, [...(byReason.get(reason) ?? []), file]);
  }
  for (const [reason, files] of [...byReason].sort()) notes.push({ reason, files });
  return notes;
}
