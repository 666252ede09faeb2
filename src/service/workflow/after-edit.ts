import type { AfterEditDelta, CheckResponse, Compare, Delta, NotCompared, WorkflowStale } from "../../core/contracts.ts";
import { pendingNotCompared } from "../../core/completeness.ts";
import { compareChecks, matchIssues, publicWorkflowIssue, type SnapshotIssue } from "../../core/delta.ts";
import type { Issue } from "../../core/issues.ts";
import { isWithin, normalizePathList } from "../../core/paths.ts";
import type { CheckOptions } from "../job/check-events.ts";
import { insideRoot } from "../project/project.ts";
import type { Checker } from "./checker.ts";
import type { StoredSnapshot } from "../history/snapshots.ts";
import { composeDeltas } from "../../core/composed-delta.ts";
import { answersFor } from "../../core/elsewhere.ts";

/** compare_diagnostics: introduced / resolved / unchanged between two snapshots, or the stale answer for either id. */
export function compareSnapshots(service: Checker, baselineCheckId: string, currentCheckId: string): Compare | WorkflowStale {
  const baseline = service.snapshots.find(baselineCheckId);
  if ("status" in baseline) return baseline;
  const current = service.snapshots.find(currentCheckId);
  if ("status" in current) return current;
  return { baselineCheckId, currentCheckId, ...compareChecks(baseline, current) };
}

/** A check plus its delta against a baseline (no_baseline when no earlier check covered the files). */
export interface AfterEdit {
  response: CheckResponse;
  delta: AfterEditDelta | null;
}

/** The default baselines of an after-edit check: per path, the newest earlier check that covered it. */
interface Baselines {
  parts: { baseline: StoredSnapshot; paths: string[] }[];
  /** Paths no earlier check covered. */
  uncovered: string[];
}

/**
 * The default baselines of an after-edit check: for each of the files, the newest earlier engine check that covered
 * it (files an earlier check covered together share it); files none covered are named in the delta's notCompared,
 * and when none was covered there is no baseline. Ingested (LSP) snapshots are never a default baseline: their issues
 * are not the engines'; nor is a pending check (its named files' answer, the rest not re-checked yet): the same call
 * again, which completes it, compares with what that one compared with.
 */
function defaultBaselines(service: Checker, files: readonly string[], session: string | undefined): Baselines | null {
  let wanted: string[];
  try {
    wanted = normalizePathList(files.map((file) => insideRoot(service.project, file)));
  } catch {
    return null; // the check itself refuses the path with its reason
  }
  // A client's session compares with its own checks, never with another session's (two agents on one daemon).
  const checks = service.snapshots
    .all()
    .filter((snapshot) => snapshot.tool !== "ingest_diagnostics" && !snapshot.pending && (session === undefined || snapshot.session === session));
  const covers = (snapshot: StoredSnapshot, file: string) => snapshot.scope.some((entry) => isWithin(file, entry));
  const newestFirst = [...checks].reverse();
  const parts = new Map<StoredSnapshot, string[]>();
  const uncovered: string[] = [];
  for (const file of wanted) {
    const baseline = newestFirst.find((snapshot) => covers(snapshot, file));
    if (baseline) parts.set(baseline, [...(parts.get(baseline) ?? []), file]);
    else uncovered.push(file);
  }
  return parts.size ? { parts: [...parts].map(([baseline, paths]) => ({ baseline, paths })), uncovered } : null;
}

/**
 * after_edit_check: check the files (feeding loop memory and file-rule churn like check_files) and compare with the
 * baseline (taken before the check runs). A named baseline that is unknown or expired answers stale before anything
 * runs.
 */
export async function afterEditCheck(
  service: Checker,
  files: readonly string[],
  options: CheckOptions & { baselineCheckId?: string } = {},
): Promise<AfterEdit | WorkflowStale> {
  const named = options.baselineCheckId !== undefined ? service.snapshots.find(options.baselineCheckId) : null;
  if (named && "status" in named) return named;
  const baselines = named ? null : defaultBaselines(service, files, options.session);
  const { signal, onEvent, session, env } = options;
  const response = await service.check(files, true, { signal, onEvent, session, env, whole: options.whole, tool: options.tool ?? "after_edit_check" });
  const current = service.snapshots.find(response.checkId);
  if ("status" in current) return { response, delta: null };
  if (!named && !baselines) {
    const message = `No earlier check covered ${current.scope.join(", ")}: nothing was compared. This check (${response.checkId}) is the baseline of the next after_edit_check.`;
    return { response, delta: { status: "no_baseline", message } };
  }
  const used = named ? [named] : (baselines?.parts ?? []).map((part) => part.baseline);
  const now = service.elsewhereOf(response.checkId);
  // Errors elsewhere each baseline showed (introduced then, or there from the start), once each.
  // A baseline whose scope was wider (a check_project) showed tsc's errors in other files among its own issues.
  const outsideNow = (issue: SnapshotIssue) => !current.scope.some((entry) => isWithin(issue.file, entry));
  // Each with the tsc programs that reported it: the baseline check's (undefined when not known — a command-line run, a
  // check no longer remembered — so never told fixed); one error several baselines showed, from all their programs.
  const origins = new Map<string, { issue: SnapshotIssue; from: Set<string> | undefined }>();
  for (const baseline of used) {
    const before = service.elsewhereOf(baseline.checkId);
    const programs = service.tscProgramsOf(baseline.checkId);
    const own = baseline.issues.filter((issue) => (issue.engine === "tsc" || issue.engine === "eslint") && issue.severity === "error" && outsideNow(issue));
    for (const issue of [...(before?.introduced ?? []), ...(before?.unattributed ?? []), ...own]) {
      const key = `${issue.file}:${issue.line}:${issue.col}:${issue.engine}:${issue.rule}:${issue.message}`;
      const seen = origins.get(key);
      const from = programs && (!seen || seen.from) ? new Set([...(seen?.from ?? []), ...programs]) : undefined;
      origins.set(key, { issue: seen?.issue ?? issue, from });
    }
  }
  const earlier = [...origins.values()].map(({ issue }) => issue);
  const known = [...used.flatMap((baseline) => baseline.issues), ...earlier];
  // Errors elsewhere that a baseline showed and tsc no longer reports (it ran: `now`, with every program that had
  // reported them) are this edit's fixes; ESLint's only in the files it linted now (the ones importing the checked
  // files: see LintedDependents). Only outside the checked files: inside them, the comparison with each file's
  // baseline decides.
  const fixed = now
    ? unmatched(
        [...origins.values()].filter(({ issue, from }) => outsideNow(issue) && answersFor(now, issue, from)).map(({ issue }) => issue),
        now.outside,
      )
    : [];
  // One earlier check covering every file is compared whole (its scope may be wider, as before composition).
  const [only] = baselines?.parts ?? [];
  const whole = named ?? (baselines?.parts.length === 1 && !baselines.uncovered.length && only ? only.baseline : null);
  const delta = whole ? compareChecks(whole, current) : composeDeltas(baselines?.parts ?? [], current, baselines?.uncovered ?? []);
  // A named baseline that was pending: tsc checked only its own files, so tsc's errors elsewhere cannot be told new or
  // old against it; ESLint's are (it linted the files importing them whole, and its errors there are the baseline's).
  const comparable = named?.pending ? uncomparedTsc(now?.introduced ?? [], named.scope) : { inside: now?.introduced ?? [], outside: [] };
  const notes = [
    ...(named?.pending ? [pendingBaselineNote(named, comparable.outside)] : []),
    ...(response.pending ? [pendingNotCompared(response.pending)] : []),
  ];
  return { response, delta: withNotes(withElsewhere(delta, comparable.inside, known, fixed), notes) };
}

/** What a pending baseline (of `scope`) answered for: every issue but tsc's outside its scope (`outside`). */
function uncomparedTsc(issues: readonly Issue[], scope: readonly string[]): { inside: Issue[]; outside: Issue[] } {
  const answered = (issue: Issue) => issue.engine !== "tsc" || scope.some((entry) => isWithin(issue.file, entry));
  return { inside: issues.filter(answered), outside: issues.filter((issue) => !answered(issue)) };
}

/** What a pending named baseline leaves uncompared: tsc's errors outside the files it answered. */
function pendingBaselineNote(baseline: StoredSnapshot, uncompared: readonly Issue[]): NotCompared {
  const files = [...new Set(uncompared.map((issue) => issue.file))].sort();
  const now = uncompared.length ? ` (${uncompared.length} now, in ${files.length === 1 ? "1 file" : `${files.length} files`}: see elsewhere)` : "";
  return {
    reason: "outside_baseline",
    ...(files.length ? { paths: files } : {}),
    message: `The baseline ${baseline.checkId} answered its named files only (it was pending): tsc errors outside ${baseline.scope.join(", ")} are not compared with it${now}`,
  };
}

/** The delta with more notCompared notes (each once). */
function withNotes(delta: Delta, notes: readonly NotCompared[]): Delta {
  if (!notes.length) return delta;
  return { ...delta, notCompared: [...(delta.notCompared ?? []), ...notes] };
}

/** The issues of `these` that `others` lacks (matched as compare does). */
function unmatched<T extends SnapshotIssue>(these: readonly T[], others: readonly SnapshotIssue[]): T[] {
  const { usedAfter } = matchIssues(others, these);
  return these.filter((_, index) => !usedAfter.has(index));
}

/**
 * The delta plus the tsc errors introduced outside the checked files (see TscKnowledge) that the baseline did not
 * already show, in its own files or elsewhere (an error an earlier edit caused is not this edit's again), and the
 * errors elsewhere the baseline showed that this edit fixed.
 */
function withElsewhere(delta: Delta, elsewhere: readonly Issue[], known: readonly SnapshotIssue[], fixed: readonly SnapshotIssue[]): Delta {
  const introduced = unmatched(elsewhere, known);
  if (!introduced.length && !fixed.length) return delta;
  const errors = (list: readonly SnapshotIssue[]) => list.filter((issue) => issue.severity === "error").length;
  return {
    ...delta,
    introduced: [...delta.introduced, ...introduced.map(publicWorkflowIssue)],
    resolved: [...delta.resolved, ...fixed.map(publicWorkflowIssue)],
    netErrorDelta: delta.netErrorDelta + errors(introduced) - errors(fixed),
  };
}
