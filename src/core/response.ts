import type {
  CheckIssue,
  CheckResponse,
  CompactCheckResponse,
  CompactSnapshot,
  Elsewhere,
  Engines,
  LoopWarning,
  NotChecked,
  Pending,
  Snapshot,
} from "./contracts.ts";
import type { ClusterGroup } from "./cluster.ts";
import { publicIssue, type Issue } from "./issues.ts";
import { checkStatus, incompleteNote, pendingNote } from "./completeness.ts";

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
  /** Coverage notes: files under the checked paths not (fully) checked, by reason. */
  notChecked?: NotChecked[];
  /** The files (root-relative) that went unchecked and make the check incomplete (core/completeness.ts): never clean. */
  incomplete?: readonly string[];
  /** The project's own linters that could not run on the checked files (xo, …): such a check is never clean either. */
  unlinted?: readonly string[];
  /**
   * ESLint's typed rules did not lint (all) the files importing the checked ones (why, as its notChecked note says): a
   * clean answer's next step says the edit's effect there is not known.
   */
  importersUnlinted?: string;
  /** tsc errors outside the checked files that the change introduced (or, nothing known before, present): never clean. */
  elsewhere?: Elsewhere;
  /** tsc still re-checks what the change may affect beyond the named files: never clean. */
  pending?: Pending;
}

function failedEngines(engines: Engines): string[] {
  return Object.entries(engines)
    .filter(([, status]) => status.status === "error")
    .map(([name, status]) => `${name}: ${status.message ?? "failed"}`);
}

function nextStepFor(facts: CheckFacts, returned: readonly ClusterGroup[], remaining: readonly Issue[]): string | undefined {
  const failures = failedEngines(facts.engines);
  const incomplete = facts.incomplete?.length ? ` ${incompleteNote(facts.incomplete)}` : "";
  const linters = facts.unlinted?.join(", ");
  const unlinted = linters
    ? ` The project also lints with ${linters}, which Signalint did not run (notChecked says why): run ${linters} yourself, or have Signalint run it where notChecked says how, before calling these files clean.`
    : "";
  const failureNote = (failures.length ? ` Engine failures (results incomplete): ${failures.join("; ")}.` : "") + incomplete + unlinted;
  const top = returned[0];
  const first = remaining[0];
  if (top && (!first || top.cluster.priority <= 2 || first.severity !== "error")) {
    return `Fix cluster ${top.cluster.clusterId} first (get_issue_detail lists its ${top.cluster.issueCount} locations).${failureNote}`;
  }
  if (first) return `Fix ${first.file}:${first.line} (${first.rule}) first, then check_files the files you changed.${failureNote}`;
  if (failures.length) return `No issues reported, but the result is incomplete.${failureNote}`;
  if (facts.incomplete?.length) {
    const reasons = (facts.notChecked ?? []).map((note) => `${note.count} file(s) ${note.reason}`).join("; ");
    return `No issues reported, but nothing type-checked these files: ${reasons}.${incomplete} Run the project's own checker on them (or, for TypeScript files no program includes, add their tsconfig to typescript.projects in signalint.config.json).`;
  }
  if (linters)
    return `No issues reported, but the project lints with ${linters}, which Signalint did not run (notChecked says why): run ${linters} yourself, or have Signalint run it where notChecked says how, before calling these files clean.`;
  if (!Object.values(facts.engines).some((status) => status.status === "ok")) {
    return "No engine ran, so nothing was checked: install oxlint and/or typescript in the project (npm i -D oxlint typescript) or enable an engine in signalint.config.json.";
  }
  if (facts.importersUnlinted) return `No issues in these files, but ${facts.importersUnlinted} before calling the edit safe.`;
  // Clean: nothing to do, so nothing to say (filteredOutIssueCount tells about issues elsewhere).
  return undefined;
}

/** An issue as a check response lists it: default-valued fields (fixable false, clusterId null) left out. */
export function checkIssue(issue: Issue): CheckIssue {
  const { fixable, clusterId, ...rest } = publicIssue(issue);
  return { ...rest, ...(fixable ? { fixable: true as const } : {}), ...(clusterId !== null ? { clusterId } : {}) };
}

/**
 * Shape a CheckResponse: clusters capped at maxClusters, remaining issues capped, counts for the rest. Fields that
 * would carry only their default (no remaining issues, zero counts, a clean check's next step, engine versions —
 * snapshots and doctor keep those) are left out.
 */
export function buildCheckResponse(facts: CheckFacts): CheckResponse {
  const returned = facts.groups.slice(0, facts.maxClusters);
  const inReturned = new Set(returned.flatMap((group) => group.issues.map((issue) => issue.fullId)));
  const notClustered = facts.issues.filter((issue) => !inReturned.has(issue.fullId));
  // Errors before warnings so a capped list keeps what matters most.
  const ordered = [...notClustered.filter((issue) => issue.severity === "error"), ...notClustered.filter((issue) => issue.severity !== "error")];
  const remaining = ordered.slice(0, facts.maxRemainingIssues);
  const engines = Object.fromEntries(Object.entries(facts.engines).map(([name, { version: _version, ...status }]) => [name, status])) as Engines;
  const omitted = notClustered.length - remaining.length;
  const step = nextStepFor(facts, returned, remaining) ?? facts.elsewhere?.nextStep;
  // The rest still re-checking: how to get the complete answer, after whatever else there is to do.
  const pending = facts.pending && pendingNote(facts.pending.programs, facts.pending.files);
  const nextStep = pending ? (step ? `${step} ${pending}` : pending) : step;
  return {
    schemaVersion: "1.3",
    status: checkStatus({ ...facts, issueCount: facts.issues.length }),
    checkId: facts.checkId,
    projectRoot: facts.projectRoot,
    engines,
    totalIssues: facts.issues.length,
    clusters: returned.map((group) => group.cluster),
    ...(remaining.length ? { remainingIssues: remaining.map(checkIssue) } : {}),
    ...(omitted ? { omittedIssueCount: omitted } : {}),
    ...(facts.filteredOutIssueCount ? { filteredOutIssueCount: facts.filteredOutIssueCount } : {}),
    truncated: facts.groups.length > returned.length,
    loopWarning: facts.loopWarning,
    ...(nextStep ? { nextStep } : {}),
    ...(facts.cache && Object.keys(facts.cache).length ? { cache: facts.cache } : {}),
    ...(facts.notChecked?.length ? { notChecked: facts.notChecked } : {}),
    ...(facts.elsewhere ? { elsewhere: facts.elsewhere } : {}),
    ...(facts.pending ? { pending: facts.pending } : {}),
  };
}

/** The keys compact mode renames (spec 000), in every value that has them; projectRoot is dropped. */
export const COMPACT_KEYS: Readonly<Record<string, string>> = {
  schemaVersion: "v",
  totalIssues: "total",
  remainingIssues: "remaining",
  omittedIssueCount: "omitted",
  filteredOutIssueCount: "filteredOut",
};

/** A field's name in the active key style. */
export function keyIn(field: string, compact: boolean): string {
  return compact ? (COMPACT_KEYS[field] ?? field) : field;
}

/** A snapshot in compact keys: `total` for `totalIssues`, and engine versions left out as in check responses. */
export function compactSnapshot(snapshot: Snapshot): CompactSnapshot {
  const { totalIssues, engines, ...rest } = snapshot;
  const lean = Object.fromEntries(Object.entries(engines).map(([name, { version: _version, ...status }]) => [name, status])) as Engines;
  return { ...rest, engines: lean, total: totalIssues };
}

/** Compact keys: v, total, remaining, omitted, filteredOut; no projectRoot (absent fields stay absent). */
export function compactCheckResponse(response: CheckResponse): CompactCheckResponse {
  const { schemaVersion, projectRoot: _root, totalIssues, remainingIssues, omittedIssueCount, filteredOutIssueCount, ...rest } = response;
  return {
    v: schemaVersion,
    ...rest,
    total: totalIssues,
    ...(remainingIssues ? { remaining: remainingIssues } : {}),
    ...(omittedIssueCount !== undefined ? { omitted: omittedIssueCount } : {}),
    ...(filteredOutIssueCount !== undefined ? { filteredOut: filteredOutIssueCount } : {}),
  };
}

/** Read counts from either key style (for summaries and snapshots). */
export function readCheckCounts(value: CheckResponse | CompactCheckResponse): { total: number; remaining: number; omitted: number; filteredOut: number } {
  if ("v" in value) return { total: value.total, remaining: value.remaining?.length ?? 0, omitted: value.omitted ?? 0, filteredOut: value.filteredOut ?? 0 };
  return {
    total: value.totalIssues,
    remaining: value.remainingIssues?.length ?? 0,
    omitted: value.omittedIssueCount ?? 0,
    filteredOut: value.filteredOutIssueCount ?? 0,
  };
}
