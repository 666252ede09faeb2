import type { AfterEditDelta, CheckResponse, Compare, Delta, WorkflowStale } from "../../core/contracts.ts";
import { compareChecks, matchIssues, publicWorkflowIssue, type SnapshotIssue } from "../../core/delta.ts";
import type { Issue } from "../../core/issues.ts";
import { isWithin, normalizePathList } from "../../core/paths.ts";
import type { CheckOptions } from "../job/check-events.ts";
import { insideRoot } from "../project/project.ts";
import type { Checker } from "./checker.ts";
import type { StoredSnapshot } from "../history/snapshots.ts";

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

/**
 * The default baseline of an after-edit check: the previous engine check that covered every one of the files, else
 * the previous one that covered some of them (the rest is named in the delta's notCompared), else none. Ingested
 * (LSP) snapshots are never a default baseline: their issues are not the engines'.
 */
function defaultBaseline(service: Checker, files: readonly string[], session: string | undefined): StoredSnapshot | null {
  let wanted: string[];
  try {
    wanted = normalizePathList(files.map((file) => insideRoot(service.project, file)));
  } catch {
    return null; // the check itself refuses the path with its reason
  }
  // A client's session compares with its own checks, never with another session's (two agents on one daemon).
  const checks = service.snapshots
    .all()
    .filter((snapshot) => snapshot.tool !== "ingest_diagnostics" && (session === undefined || snapshot.session === session));
  const covers = (snapshot: StoredSnapshot, file: string) => snapshot.scope.some((entry) => isWithin(file, entry));
  const newestFirst = [...checks].reverse();
  return (
    newestFirst.find((snapshot) => wanted.every((file) => covers(snapshot, file))) ??
    newestFirst.find((snapshot) => wanted.some((file) => covers(snapshot, file))) ??
    null
  );
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
  const baseline = options.baselineCheckId !== undefined ? service.snapshots.find(options.baselineCheckId) : defaultBaseline(service, files, options.session);
  if (baseline && "status" in baseline) return baseline;
  const { signal, onEvent, session, env } = options;
  const response = await service.check(files, true, { signal, onEvent, session, env, tool: options.tool ?? "after_edit_check" });
  const current = service.snapshots.find(response.checkId);
  if ("status" in current) return { response, delta: null };
  if (!baseline) {
    const message = `No earlier check covered ${current.scope.join(", ")}: nothing was compared. This check (${response.checkId}) is the baseline of the next after_edit_check.`;
    return { response, delta: { status: "no_baseline", message } };
  }
  const now = service.elsewhereOf(response.checkId);
  const before = service.elsewhereOf(baseline.checkId);
  const earlier = [...(before?.introduced ?? []), ...(before?.unattributed ?? [])];
  // Errors elsewhere that the baseline showed and tsc no longer reports (it ran: `now`) are this edit's fixes.
  const fixed = now ? unmatched(earlier, now.outside) : [];
  return { response, delta: withElsewhere(compareChecks(baseline, current), now?.introduced ?? [], [...baseline.issues, ...earlier], fixed) };
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
function withElsewhere(delta: Delta, elsewhere: readonly Issue[], known: readonly SnapshotIssue[], fixed: readonly Issue[]): Delta {
  const introduced = unmatched(elsewhere, known);
  if (!introduced.length && !fixed.length) return delta;
  const errors = (list: readonly Issue[]) => list.filter((issue) => issue.severity === "error").length;
  return {
    ...delta,
    introduced: [...delta.introduced, ...introduced.map(publicWorkflowIssue)],
    resolved: [...delta.resolved, ...fixed.map(publicWorkflowIssue)],
    netErrorDelta: delta.netErrorDelta + errors(introduced) - errors(fixed),
  };
}
