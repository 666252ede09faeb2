// oxlint's fixes in a fix plan (issue 35). oxlint fixes only files in place, so it runs `--fix` (its safe fixes) or
// `--fix-suggestions` on private copies of the files in Signalint's cache directory, with the config that applies
// to each file passed explicitly (`-c`: the nearest oxlint config from the file up to the root, as oxlint itself
// picks a nested one). Its JSON report says nothing of fixes, so its issues are never marked fixable; which ones a
// fix addressed is read from what oxlint still reports after it. oxlint fixes a whole file (every rule): for issues
// asked by id or cluster, a file whose fix would also change issues not asked is left as it is, and said.
import { dirname, join } from "node:path";
import type { FixKind } from "../../core/contracts.ts";
import type { Issue, RawIssue } from "../../core/issues.ts";
import { normalizeMessage } from "../../core/normalize.ts";
import { majorVersion, resolutionStart, resolveEngine } from "../../engines/resolve.ts";
import type { ResolvedEngine } from "../../engines/types.ts";
import { EngineEditError, oxlintEdits, type OxlintEdit } from "./engine-edits.ts";
import { addFix, refuseAll, type EngineAsk, type FixService, type PlanWork } from "./fix-plan.ts";

/** The config files oxlint reads beside a file or above it, in its order of preference. */
const OXLINT_CONFIGS = [".oxlintrc.json", ".oxlintrc.jsonc", "oxlint.config.ts"];

/** The nearest oxlint config from the file's directory up to the root (null: none, oxlint's defaults). */
async function configOf(service: FixService, file: string): Promise<string | null> {
  const { runtime, project } = service;
  for (let dir = dirname(join(project.root, file)); ; dir = dirname(dir)) {
    for (const name of OXLINT_CONFIGS) if ((await runtime.stat(join(dir, name)))?.isFile) return join(dir, name);
    if (dir === project.root || dirname(dir) === dir) return null;
  }
}

/** The issues of `present` that oxlint no longer reports (`remaining`): one-to-one by rule and message, nearest line. */
function goneAfter(present: readonly Issue[], remaining: readonly RawIssue[]): Issue[] {
  const left = new Set(present);
  for (const report of remaining) {
    const message = normalizeMessage(report.message);
    const same = [...left].filter((issue) => issue.rule === report.rule && issue.message === message);
    const nearest = same.sort((a, b) => Math.abs(a.line - report.line) - Math.abs(b.line - report.line))[0];
    if (nearest) left.delete(nearest);
  }
  return [...left];
}

/**
 * oxlint's fixes of the asked oxlint issues (`issues`; `whole`: every fix in `files`), applied to the plan's texts
 * after the engines before it; kinds safe (`--fix`) then suggestion (`--fix-suggestions`, oxlint 1.x).
 */
export async function planOxlintFixes(service: FixService, work: PlanWork, asked: EngineAsk): Promise<void> {
  const { runtime, project } = service;
  const files = (asked.whole ? asked.files : [...new Set(asked.issues.map((issue) => issue.file))]).filter((file) => typeof work.texts.get(file) === "string");
  if (!files.length) return;
  const resolved = await resolveEngine(runtime, "oxlint", { start: resolutionStart(project.root, files), node: service.node });
  if (!resolved) return refuseAll(work, asked.issues, "oxlint is not installed where the project resolves it");
  const groups = new Map<string | null, string[]>();
  for (const file of files) {
    const config = await configOf(service, file);
    groups.set(config, [...(groups.get(config) ?? []), file]);
  }
  // What oxlint reported in each file and has not been fixed yet.
  const present = new Map(files.map((file) => [file, work.check?.issues.filter((issue) => issue.file === file && issue.engine === "oxlint") ?? []]));
  for (const kind of (["safe", "suggestion"] as const).filter((each) => work.kinds.includes(each))) {
    if (kind === "suggestion" && majorVersion(resolved) < 1) {
      refuseAll(work, asked.issues, `oxlint ${resolved.version ?? ""} has no --fix-suggestions (oxlint 1.x has)`);
      continue;
    }
    for (const [config, group] of groups) await fixGroup(service, work, { resolved, config, group, kind, present, asked: asked.issues, whole: asked.whole });
  }
}

/** One oxlint run over the files sharing a config, for one kind; its edits taken where they change only asked issues. */
async function fixGroup(
  service: FixService,
  work: PlanWork,
  run: {
    resolved: ResolvedEngine;
    config: string | null;
    group: string[];
    kind: FixKind;
    present: Map<string, Issue[]>;
    asked: readonly Issue[];
    whole: boolean;
  },
): Promise<void> {
  const { runtime, project } = service;
  const context = { runtime, root: project.root, cacheDir: project.cacheDir, timeoutMs: project.settings.timeoutsMs.oxlint };
  const texts = run.group.map((file) => ({ file, text: work.texts.get(file) as string }));
  let edits: OxlintEdit[];
  try {
    edits = await oxlintEdits(context, run.resolved, texts, { config: run.config, kind: run.kind });
  } catch (error) {
    if (!(error instanceof EngineEditError)) throw error;
    return refuseAll(
      work,
      run.asked.filter((issue) => run.group.includes(issue.file)),
      error.message,
    );
  }
  for (const edit of edits) {
    if (edit.output === work.texts.get(edit.file)) continue;
    const before = run.present.get(edit.file) ?? [];
    const gone = goneAfter(before, edit.remaining);
    const unasked = run.whole ? [] : gone.filter((issue) => !run.asked.includes(issue));
    if (unasked.length) {
      const reason = `oxlint fixes a whole file: its fix of ${edit.file} would also change ${unasked.length} issue(s) not asked; ask by files`;
      refuseAll(
        work,
        run.asked.filter((issue) => issue.file === edit.file),
        reason,
      );
      continue;
    }
    work.texts.set(edit.file, edit.output);
    run.present.set(
      edit.file,
      before.filter((issue) => !gone.includes(issue)),
    );
    addFix(work, edit.file, { engine: "oxlint", kind: run.kind, issueIds: gone.map((issue) => issue.issueId) });
  }
}
