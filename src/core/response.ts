import type { CheckResponse, CompactCheckResponse, Engines, LoopWarning } from "./contracts.ts";
import type { ClusterGroup } from "./cluster.ts";
import { publicIssue, type Issue } from "./issues.ts";

/** Everything needed to shape one check's response. */
export interface CheckFacts {
  checkId: string;
  projectRoot: string;
  engines: Engines;
  issues: readonly Issue[];
  groups: readonly ClusterGroup[];
  filteredOutIssueCount: number;
  loopWarning: LoopWarning | null;
  maxClusters: number;
  maxRemainingIssues: number;
  /** Cache use per engine that ran. */
  cache?: CheckResponse["cache"];
}

function failedEngines(engines: Engines): string[] {
  return Object.entries(engines)
    .filter(([, status]) => status.status === "error")
    .map(([name, status]) => `${name}: ${status.message ?? "failed"}`);
}

function nextStepFor(facts: CheckFacts, returned: readonly ClusterGroup[], remaining: readonly Issue[]): string {
  const failures = failedEngines(facts.engines);
  const failureNote = failures.length ? ` Engine failures (results incomplete): ${failures.join("; ")}.` : "";
  const top = returned[0];
  const first = remaining[0];
  if (top && (!first || top.cluster.priority <= 2 || first.severity !== "error")) {
    const { clusterId, issueCount } = top.cluster;
    return `Fix cluster ${clusterId} first; get_issue_detail {"clusterId":"${clusterId}"} lists its ${issueCount} locations.${failureNote}`;
  }
  if (first) {
    return `Fix ${first.file}:${first.line} (${first.rule}) first, then check_files the files you changed.${failureNote}`;
  }
  if (failures.length) return `No issues reported, but the result is incomplete.${failureNote}`;
  if (!Object.values(facts.engines).some((status) => status.status === "ok")) {
    return "No engine ran, so nothing was checked: install oxlint and/or typescript in the project (npm i -D oxlint typescript) or enable an engine in signalint.config.json.";
  }
  if (facts.filteredOutIssueCount > 0)
    return `No issues in the requested paths (${facts.filteredOutIssueCount} elsewhere or ignored). Re-run check_files after your next edit.`;
  return "No issues. Re-run check_files after your next edit.";
}

/** Shape a CheckResponse: clusters capped at maxClusters, remaining issues capped, counts for the rest. */
export function buildCheckResponse(facts: CheckFacts): CheckResponse {
  const returned = facts.groups.slice(0, facts.maxClusters);
  const inReturned = new Set(returned.flatMap((group) => group.issues.map((issue) => issue.fullId)));
  const notClustered = facts.issues.filter((issue) => !inReturned.has(issue.fullId));
  // Errors before warnings so a capped list keeps what matters most.
  const ordered = [...notClustered.filter((issue) => issue.severity === "error"), ...notClustered.filter((issue) => issue.severity !== "error")];
  const remaining = ordered.slice(0, facts.maxRemainingIssues);
  const statuses = Object.values(facts.engines);
  // A check where an engine failed, or where no engine ran at all, is an error even when other engines found issues.
  const hasFailure = statuses.some((status) => status.status === "error") || !statuses.some((status) => status.status === "ok");
  return {
    schemaVersion: "1.2",
    status: hasFailure ? "error" : facts.issues.length > 0 ? "issues_found" : "clean",
    checkId: facts.checkId,
    projectRoot: facts.projectRoot,
    engines: facts.engines,
    totalIssues: facts.issues.length,
    clusters: returned.map((group) => group.cluster),
    remainingIssues: remaining.map(publicIssue),
    omittedIssueCount: notClustered.length - remaining.length,
    filteredOutIssueCount: facts.filteredOutIssueCount,
    truncated: facts.groups.length > returned.length,
    loopWarning: facts.loopWarning,
    nextStep: nextStepFor(facts, returned, remaining),
    ...(facts.cache && Object.keys(facts.cache).length ? { cache: facts.cache } : {}),
  };
}

/** Compact keys: v, total, remaining, omitted, filteredOut; no projectRoot and no engine versions. */
export function compactCheckResponse(response: CheckResponse): CompactCheckResponse {
  const { schemaVersion, projectRoot: _root, totalIssues, remainingIssues, omittedIssueCount, filteredOutIssueCount, engines, ...rest } = response;
  const lean = Object.fromEntries(Object.entries(engines).map(([name, { version: _version, ...status }]) => [name, status])) as Engines;
  return {
    v: schemaVersion,
    ...rest,
    engines: lean,
    total: totalIssues,
    remaining: remainingIssues,
    omitted: omittedIssueCount,
    filteredOut: filteredOutIssueCount,
  };
}

/** Read counts from either key style (for summaries and snapshots). */
export function readCheckCounts(value: CheckResponse | CompactCheckResponse): { total: number; remaining: number; omitted: number; filteredOut: number } {
  if ("v" in value) return { total: value.total, remaining: value.remaining.length, omitted: value.omitted, filteredOut: value.filteredOut };
  return { total: value.totalIssues, remaining: value.remainingIssues.length, omitted: value.omittedIssueCount, filteredOut: value.filteredOutIssueCount };
}
