import type { CheckResponse, Compare, Delta, WorkflowStale } from "../../core/contracts.ts";
import { compareChecks } from "../../core/delta.ts";
import { isWithin, normalizePathList } from "../../core/paths.ts";
import type { CheckOptions } from "../check/check-events.ts";
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

/** A check plus its delta against a baseline (null when there was no earlier check to compare with). */
export interface AfterEdit {
  response: CheckResponse;
  delta: Delta | null;
}

/**
 * The baseline of an after-edit check: the named snapshot, else the previous check that covered every one of the
 * files (a check of other files has nothing to compare), else the previous check. Taken before the check runs.
 */
function baselineFor(
  service: Checker,
  files: readonly string[],
  options: { baselineCheckId?: string; session?: string },
): StoredSnapshot | WorkflowStale | null {
  if (options.baselineCheckId !== undefined) return service.snapshots.find(options.baselineCheckId);
  // A client's session compares with its own checks, never with another session's (two agents on one daemon).
  const all = service.snapshots.all().filter((snapshot) => options.session === undefined || snapshot.session === options.session);
  let wanted: string[];
  try {
    wanted = normalizePathList(files.map((file) => insideRoot(service.project, file)));
  } catch {
    return all.at(-1) ?? null; // the check itself refuses the path with its reason
  }
  const covering = [...all].reverse().find((snapshot) => wanted.every((file) => snapshot.scope.some((entry) => isWithin(file, entry))));
  return covering ?? all.at(-1) ?? null;
}

/**
 * after_edit_check: check the files (feeding loop memory and file-rule churn like check_files) and compare with the
 * baseline. A named baseline that is unknown or expired answers stale before anything runs.
 */
export async function afterEditCheck(
  service: Checker,
  files: readonly string[],
  options: CheckOptions & { baselineCheckId?: string } = {},
): Promise<AfterEdit | WorkflowStale> {
  const baseline = baselineFor(service, files, options);
  if (baseline && "status" in baseline) return baseline;
  const { signal, onEvent, session } = options;
  const response = await service.check(files, true, { signal, onEvent, session, tool: options.tool ?? "after_edit_check" });
  const current = service.snapshots.find(response.checkId);
  if ("status" in current) return { response, delta: null };
  return { response, delta: baseline ? compareChecks(baseline, current) : null };
}
