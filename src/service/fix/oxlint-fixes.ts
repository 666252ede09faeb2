// oxlint's fixes in a fix plan (issue 35). oxlint fixes only files in place, so it runs `--fix` (its safe fixes) or
// `--fix-suggestions` on private copies of the files in Signalint's cache directory, with the config that applies
// to each file (the project's lint script's `-c` config, else its nearest oxlint config, as oxlint itself picks a
// nested one) mirrored into the copy at its place
// (oxlint-copy.ts) and passed explicitly (`-c`). Its JSON report says nothing of fixes, so its issues are never marked
// fixable; which ones a fix addressed is read from two runs on the copy: what oxlint reported there before its fix and
// no longer after (a check's issue matched by rule, message and line, its line carried through the diff of what earlier
// edits made of the file; the suggestion pass reuses the safe pass's baseline run when that fix left the texts as they
// were). A check's issue the copy never showed (a rule that reads other files or types) is never credited.
// oxlint fixes a whole file (every rule): for issues asked by id or cluster, a file whose fix would also change issues
// not asked is left as it is, and said.
import type { FixKind } from "../../core/contracts.ts";
import type { Issue, RawIssue } from "../../core/issues.ts";
import { normalizeMessage } from "../../core/normalize.ts";
import { lineMap } from "../../core/unified-diff.ts";
import { majorVersion, resolutionStart, resolveEngine } from "../../engines/resolve.ts";
import type { ResolvedEngine } from "../../engines/types.ts";
import { EngineEditError, oxlintEdits, type OxlintEdit } from "./engine-edits.ts";
import { addFix, refuseAll, type EngineAsk, type FixService, type PlanWork } from "./fix-plan.ts";
import { oxlintConfigOf, planOxlintCopy, type OxlintCopyPlan } from "./oxlint-copy.ts";
import { oxlintRuleSwitches, oxlintRunOf, oxlintScope } from "../lint/oxlint-scope.ts";

/** Why an asked issue the copy's baseline run did not show gets no fix (`edited`: an earlier engine changed the file). */
function unseenReason(edited: boolean): string {
  const why = edited ? "an earlier edit may have removed it, or its rule reads other files or types" : "its rule reads other files or types";
  return `oxlint does not report it on a private copy of the asked files (${why}): no oxlint fix is credited with it`;
}

/** Pairs of `a` and `b` with the same rule and normalized message, one-to-one, each of `a` with the nearest line left. */
function pairUp<A extends { rule: string; line: number }, B extends { rule: string; line: number }>(
  a: readonly A[],
  b: readonly B[],
  messageOf: { a: (item: A) => string; b: (item: B) => string },
): Map<A, B> {
  const left = new Set(b);
  const pairs = new Map<A, B>();
  for (const item of a) {
    const same = [...left].filter((other) => other.rule === item.rule && messageOf.b(other) === messageOf.a(item));
    const nearest = same.sort((x, y) => Math.abs(x.line - item.line) - Math.abs(y.line - item.line))[0];
    if (nearest) {
      left.delete(nearest);
      pairs.set(item, nearest);
    }
  }
  return pairs;
}

/**
 * Of the check's issues `present` in a file, those the copy showed before the fix (`seen`) and of them those oxlint no
 * longer reports after it (`gone`). `moved` takes a check's line to the text oxlint was given (an earlier edit, another
 * engine's or oxlint's safe pass, may have moved it); oxlint reports what its fix left at the given text's places.
 */
function goneAfter(present: readonly Issue[], edit: OxlintEdit, moved: (line: number) => number): { seen: Issue[]; gone: Issue[] } {
  const raw = (issue: RawIssue) => normalizeMessage(issue.message);
  const placed = present.map((issue) => ({ issue, rule: issue.rule, line: moved(issue.line) }));
  const shown = pairUp(placed, edit.before, { a: (entry) => entry.issue.message, b: raw });
  const stays = pairUp(edit.remaining, edit.before, { a: raw, b: raw });
  const kept = new Set(stays.values());
  const seen = [...shown.keys()];
  return { seen: seen.map((entry) => entry.issue), gone: seen.filter((entry) => !kept.has(shown.get(entry) as RawIssue)).map((entry) => entry.issue) };
}

/** What a pass gave oxlint on a copy and what the copy showed before its fix: the next pass on the same texts reuses it. */
interface Baseline {
  texts: ReadonlyMap<string, string>;
  before: ReadonlyMap<string, RawIssue[]>;
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
  const groups = new Map<string, string[]>();
  // The config and rule switches the check used: a lint script's (lint/oxlint-scope.ts), else the file's nearest config.
  const scope = await oxlintScope(runtime, project.root);
  const runs = new Map<string, { config: string | null; rules: string[] }>();
  for (const file of files) {
    const script = oxlintRunOf(scope, file);
    const run = { config: script?.config ?? (await oxlintConfigOf(runtime, project.root, file)), rules: script ? oxlintRuleSwitches(script.args) : [] };
    const key = JSON.stringify(run);
    runs.set(key, run);
    groups.set(key, [...(groups.get(key) ?? []), file]);
  }
  const layouts = new Map<string, OxlintCopyPlan>();
  for (const [key, group] of groups) {
    const { config, rules } = runs.get(key) as { config: string | null; rules: string[] };
    const layout = await planOxlintCopy(runtime, project.root, config);
    if (!("refused" in layout)) layouts.set(key, rules.length ? { ...layout, rules } : layout);
    else {
      refuseAll(
        work,
        asked.issues.filter((issue) => group.includes(issue.file)),
        layout.refused,
      );
      groups.delete(key);
    }
  }
  // What oxlint reported in each file and has not been fixed yet.
  const present = new Map(files.map((file) => [file, work.check?.issues.filter((issue) => issue.file === file && issue.engine === "oxlint") ?? []]));
  const baselines = new Map<string, Baseline>();
  for (const kind of (["safe", "suggestion"] as const).filter((each) => work.kinds.includes(each))) {
    if (kind === "suggestion" && majorVersion(resolved) < 1) {
      refuseAll(work, asked.issues, `oxlint ${resolved.version ?? ""} has no --fix-suggestions (oxlint 1.x has)`);
      continue;
    }
    for (const [key, group] of groups) {
      const layout = layouts.get(key) as OxlintCopyPlan;
      const known = baselines.get(key);
      const baseline = await fixGroup(service, work, { resolved, layout, group, kind, present, asked: asked.issues, whole: asked.whole, known });
      if (baseline) baselines.set(key, baseline);
    }
  }
}

/**
 * One oxlint pass over the files sharing a config, for one kind; its edits taken where they change only asked issues.
 * `known`: the previous pass's baseline, reused when it was made of the texts this pass gives (its fix changed none).
 * Returns this pass's baseline, or null when oxlint failed.
 */
async function fixGroup(
  service: FixService,
  work: PlanWork,
  run: {
    resolved: ResolvedEngine;
    layout: OxlintCopyPlan;
    group: string[];
    kind: FixKind;
    present: Map<string, Issue[]>;
    asked: readonly Issue[];
    whole: boolean;
    known: Baseline | undefined;
  },
): Promise<Baseline | null> {
  const { runtime, project } = service;
  const context = { runtime, root: project.root, cacheDir: project.cacheDir, timeoutMs: project.settings.timeoutsMs.oxlint };
  const texts = run.group.map((file) => ({ file, text: work.texts.get(file) as string }));
  const same = run.known !== undefined && texts.every(({ file, text }) => run.known?.texts.get(file) === text);
  let edits: OxlintEdit[];
  try {
    edits = await oxlintEdits(context, run.resolved, texts, { layout: run.layout, kind: run.kind, before: same ? run.known?.before : undefined });
  } catch (error) {
    if (!(error instanceof EngineEditError)) throw error;
    refuseAll(
      work,
      run.asked.filter((issue) => run.group.includes(issue.file)),
      error.message,
    );
    return null;
  }
  for (const edit of edits) {
    const before = run.present.get(edit.file) ?? [];
    const original = work.originals.get(edit.file);
    const given = texts.find((entry) => entry.file === edit.file)?.text ?? "";
    const { seen, gone } = goneAfter(before, edit, typeof original === "string" ? lineMap(original, given) : (line) => line);
    // A files request asks oxlint's issues only to learn which have a fix: one the copy cannot show is not news.
    const unseen = run.asked.filter((issue) => issue.file === edit.file && before.includes(issue) && !seen.includes(issue));
    if (!work.byFiles) refuseAll(work, unseen, unseenReason(work.originals.get(edit.file) !== work.texts.get(edit.file)));
    if (edit.output === work.texts.get(edit.file)) continue;
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
  return { texts: new Map(texts.map(({ file, text }) => [file, text])), before: new Map(edits.map((edit) => [edit.file, edit.before])) };
}
