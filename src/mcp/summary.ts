import type { CheckResponse, CompactCheckResponse } from "../core/contracts.ts";
import { readCheckCounts } from "../core/response.ts";

/** A short human summary of a check (counts read from either key style, so compact mode counts correctly). */
export function summarizeCheck(response: CheckResponse | CompactCheckResponse): string {
  const counts = readCheckCounts(response);
  const failures = Object.entries(response.engines)
    .filter(([, status]) => status.status === "error")
    .map(([name, status]) => `${name} failed: ${status.message ?? "error"}`);
  const found = counts.total > 0;
  const head =
    response.status === "clean"
      ? "No issues found."
      : response.status === "error" && !found
        ? "No issues reported, but the check is incomplete (engine errors below)."
        : `${response.status === "error" ? "Check incomplete (engine errors below); " : ""}${counts.total} issue${counts.total === 1 ? "" : "s"} found in ${response.clusters.length} cluster${response.clusters.length === 1 ? "" : "s"}${counts.remaining ? ` + ${counts.remaining} other${counts.remaining === 1 ? "" : "s"}` : ""}${counts.omitted ? ` (${counts.omitted} omitted)` : ""}.`;
  const top = response.clusters.slice(0, 3).map((cluster) => `[P${cluster.priority}] ${cluster.rootCauseSummary}`);
  return [head, ...top, ...failures, ...(response.nextStep ? [`Next: ${response.nextStep}`] : [])].join("\n");
}
