// apply_diagnostic_fix's proof (issue 35): after an engine fix is written and checked, it stays only when the check
// shows no new error and none of the issues its edits address is still reported; otherwise the whole transaction is
// rolled back. Pure: the caller writes and checks.
import type { AfterEditDelta } from "../../core/contracts.ts";
import type { Rollback } from "../../core/fix-contracts.ts";
import type { AfterEdit } from "../workflow/after-edit.ts";

/** Why a written fix must be undone, or null when the check after it proves it. */
export function rollbackVerdict(result: AfterEdit, addressed: readonly string[]): Rollback | null {
  const delta: AfterEditDelta | null = result.delta;
  if (!delta || "status" in delta) {
    // Nothing compared: only a check with errors in it can be told apart from the baseline it lacks.
    return null;
  }
  const introduced = delta.introduced.filter((issue) => issue.severity === "error");
  const resolved = new Set(delta.resolved.map((issue) => issue.issueId));
  const stillPresent = addressed.filter((id) => !resolved.has(id));
  const rose = introduced.length > 0 || delta.netErrorDelta > 0;
  if (!rose && stillPresent.length === 0) return null;
  const reasons = [
    ...(rose ? [`the fix made ${introduced.length || delta.netErrorDelta} new error(s)`] : []),
    ...(stillPresent.length ? [`${stillPresent.length} issue(s) it was to fix are still reported`] : []),
  ];
  return { reason: `${reasons.join(" and ")}; every file was restored`, introduced, stillPresent };
}
