// TypeScript's code fixes in a fix plan (issue 35): every asked tsc issue — marked or not, since a mark says only that
// TypeScript always fixes its code — given to the project's own TypeScript 5.x/6.x (engines/tsc-fix.ts), on the
// programs of the configs the check runs. It runs first of the engines: the issues' places are those of the check's text.
import { join } from "node:path";
import type { Issue } from "../../core/issues.ts";
import { relativeToRoot } from "../../core/paths.ts";
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
  const asks: TscFixFile[] = files.map((file) => ({
    path: join(project.root, file),
    text: work.texts.get(file) as string,
    asked: asked.whole ? null : issues.filter((issue) => issue.file === file).map(placeOf),
  }));
  let answer: TscFixAnswer;
  try {
    const context = { runtime, root: project.root, cacheDir: project.cacheDir, timeoutMs: project.settings.timeoutsMs.tsc };
    answer = await tscEdits(context, resolved, asks, { configs, kinds: work.kinds });
  } catch (error) {
    if (!(error instanceof EngineEditError)) throw error;
    return refuseAll(work, issues, error.message);
  }
  await takeAnswer(service, work, answer);
}

/** The launcher's texts into the plan (a file only another fix reached joins it), each fix's issues by id. */
async function takeAnswer(service: FixService, work: PlanWork, answer: TscFixAnswer): Promise<void> {
  const { runtime, project } = service;
  const relative = (path: string) => relativeToRoot(project.root, path);
  for (const [path, text] of Object.entries(answer.texts)) {
    const file = relative(path);
    if (file === null) continue;
    if (!work.originals.has(file)) work.originals.set(file, await runtime.readText(path).catch(ifMissing(null)));
    work.texts.set(file, text);
  }
  const issueAt = (entry: TscFixPlace & { path: string }) =>
    work.check?.issues.find(
      (issue) =>
        issue.engine === "tsc" &&
        issue.file === relative(entry.path) &&
        issue.rule === `TS${entry.code}` &&
        issue.line === entry.line &&
        issue.col === entry.col,
    );
  for (const entry of answer.fixed) {
    const issue = issueAt(entry);
    for (const touched of entry.touched) {
      const file = relative(touched);
      if (file === null) continue;
      addFix(work, file, { engine: "tsc", kind: entry.kind, issueIds: issue && issue.file === file ? [issue.issueId] : [] });
    }
  }
  for (const entry of answer.notFixed) {
    const issue = issueAt(entry);
    if (issue && (!work.byFiles || entry.offered)) refuseAll(work, [issue], entry.reason);
  }
}
