// TypeScript's code fixes in a fix plan (issue 35): every asked tsc issue — marked or not, since a mark says only that
// TypeScript always fixes its code — given to the project's own TypeScript 5.x/6.x (engines/tsc-fix.ts), on the
// programs of the configs the check runs. It runs after ESLint and Biome, on their output: every file of the plan goes
// to TypeScript as the plan holds it, and each asked issue's line is mapped from the check's text to that output.
import { join } from "node:path";
import type { Issue } from "../../core/issues.ts";
import { relativeToRoot } from "../../core/paths.ts";
import { lineMap } from "../../core/unified-diff.ts";
import { majorVersion, resolutionStart, resolveEngine } from "../../engines/resolve.ts";
import type { TscFixAnswer, TscFixFile, TscFixPlace } from "../../engines/tsc-fix.ts";
import { ifMissing } from "../../core/errors.ts";
import { choosePrograms } from "../tsc/tsc-programs.ts";
import { EngineEditError, tscEdits } from "./engine-edits.ts";
import { addFix, refuseAll, type EngineAsk, type FixService, type PlanWork } from "./fix-plan.ts";

/** The files TypeScript's code fixes are asked for (a `.vue` or `.svelte` file's diagnostics come from their checkers). */
const FIXED_BY_TYPESCRIPT = /\.[cm]?[jt]sx?$/;

/** Why TypeScript 7 gives no fix here. */
export const TS7_NOT_FIXED =
  "TypeScript 7 (tsgo) offers code fixes only through its language server, which Signalint does not run: no TypeScript fix is offered";

/** An issue's place as the launcher names it. */
function placeOf(issue: Issue): TscFixPlace {
  return { code: Number(issue.rule.replace(/^TS/, "")), line: issue.line, col: issue.col };
}

/**
 * TypeScript's fixes of the asked tsc issues (`issues`; for a files request, every diagnostic of `files`), applied to
 * the plan's texts (`whole`: every diagnostic of the files); what TypeScript does not fix is said in notFixed (for a
 * files request, only a fix of another kind).
 */
export async function planTscFixes(service: FixService, work: PlanWork, asked: EngineAsk): Promise<void> {
  const { runtime, project } = service;
  const issues = asked.issues.filter((issue) => FIXED_BY_TYPESCRIPT.test(issue.file));
  refuseAll(
    work,
    asked.issues.filter((issue) => !issues.includes(issue)),
    "TypeScript's code fixes are asked for .ts and .js files only",
  );
  const files = (asked.whole ? asked.files : [...new Set(issues.map((issue) => issue.file))]).filter(
    (file) => FIXED_BY_TYPESCRIPT.test(file) && typeof work.texts.get(file) === "string",
  );
  if (!files.length) return;
  const resolved = await resolveEngine(runtime, "tsc", { start: resolutionStart(project.root, files), node: service.node });
  if (!resolved) return refuseAll(work, issues, "TypeScript is not installed where the project resolves it");
  if (majorVersion(resolved) >= 7) return refuseAll(work, issues, TS7_NOT_FIXED);
  const choice = await choosePrograms(runtime, project.root, { stateDir: project.stateDir, configured: project.settings.typescriptProjects });
  // The editors' inferred program (no tsconfig at all) has no config to ask a language service of: no process started.
  if (choice.noTsconfig) return refuseAll(work, issues, "no tsconfig.json: TypeScript's fixes are asked only of the programs of a project's tsconfigs");
  const configs = [...choice.programs.map((program) => program.config), ...choice.reached.map((entry) => entry.config)];
  // The asked places in the plan's text (a linter's fix may have moved lines), and the issue each one is.
  const byPlace = new Map<string, Issue>();
  const asks: TscFixFile[] = files.map((file) => {
    const text = work.texts.get(file) as string;
    const original = work.originals.get(file);
    const moved = typeof original === "string" ? lineMap(original, text) : (line: number) => line;
    const places = issues
      .filter((issue) => issue.file === file)
      .map((issue) => {
        const place = { ...placeOf(issue), line: moved(issue.line) };
        byPlace.set(placeKey(join(project.root, file), place), issue);
        return place;
      });
    return { path: join(project.root, file), text, asked: asked.whole ? null : places };
  });
  // Every other file the plan holds (an earlier engine's output) is what TypeScript reads and may fix further.
  for (const [file, text] of work.texts) if (typeof text === "string" && !files.includes(file)) asks.push({ path: join(project.root, file), text, asked: [] });
  let answer: TscFixAnswer;
  try {
    const context = { runtime, root: project.root, cacheDir: project.cacheDir, timeoutMs: project.settings.timeoutsMs.tsc };
    answer = await tscEdits(context, resolved, asks, { configs, kinds: work.kinds });
  } catch (error) {
    if (!(error instanceof EngineEditError)) throw error;
    return refuseAll(work, issues, error.message);
  }
  takeAnswer(service, work, answer, asks, byPlace);
}

/** How an asked place is named in `byPlace`. */
const placeKey = (path: string, place: TscFixPlace) => `${path}\0${place.code}\0${place.line}\0${place.col}`;

/**
 * The launcher's texts into the plan, each fix's issues by id. Only files it was given or that a fix it reports
 * touched, inside the root and outside node_modules, are taken (its process ran the project's own code); a file only a
 * fix reached joins with the text the fix was applied to as its original, so a later edit on disk is drift at apply.
 */
function takeAnswer(service: FixService, work: PlanWork, answer: TscFixAnswer, asks: readonly TscFixFile[], byPlace: ReadonlyMap<string, Issue>): void {
  const { project } = service;
  const relative = (path: string) => {
    const file = relativeToRoot(project.root, path);
    return file === null || file.split("/").includes("node_modules") ? null : file;
  };
  const allowed = new Set([...asks.map((ask) => ask.path), ...answer.fixed.flatMap((entry) => entry.touched)]);
  for (const [path, text] of Object.entries(answer.texts)) {
    const file = relative(path);
    const base = work.texts.has(file ?? "") ? undefined : answer.bases[path];
    if (file === null || !allowed.has(path) || (!work.texts.has(file) && base === undefined)) continue;
    if (!work.originals.has(file)) work.originals.set(file, base ?? null);
    work.texts.set(file, text);
  }
  const issueAt = (entry: TscFixPlace & { path: string }) => byPlace.get(placeKey(entry.path, entry));
  for (const entry of answer.fixed) {
    const issue = issueAt(entry);
    for (const touched of entry.touched) {
      const file = relative(touched);
      if (file === null || !work.texts.has(file)) continue;
      // The edit addresses its issue whichever file it is in (a member declared in the class another file uses).
      addFix(work, file, { engine: "tsc", kind: entry.kind, issueIds: issue ? [issue.issueId] : [] });
    }
  }
  for (const entry of answer.notFixed) {
    const issue = issueAt(entry);
    if (issue && (!work.byFiles || entry.offered)) refuseAll(work, [issue], entry.reason);
  }
}
