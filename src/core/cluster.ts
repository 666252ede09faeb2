import type { Cluster } from "./contracts.ts";
import type { Issue } from "./issues.ts";
import { quotedValues } from "./normalize.ts";
import { canonicalRule } from "./rules.ts";

/** A cluster spanning at least this many files is "systemic". */
export const SYSTEMIC_FILE_COUNT = 3;
const SAMPLE_SIZE = 3;

/** A cluster with the issues it groups (the service keeps these; responses carry only Cluster). */
export interface ClusterGroup {
  cluster: Cluster;
  issues: Issue[];
}

function mostCommon(values: readonly string[]): [string, number] | null {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: [string, number] | null = null;
  for (const entry of counts) if (!best || entry[1] > best[1]) best = entry;
  return best;
}

function priorityOf(issues: readonly Issue[], fileCount: number): number {
  const hasError = issues.some((issue) => issue.severity === "error");
  const allFixable = issues.every((issue) => issue.fixable);
  const systemic = fileCount >= SYSTEMIC_FILE_COUNT;
  if (hasError) return systemic ? 1 : allFixable ? 3 : 2;
  return allFixable || systemic ? 5 : 4;
}

const FIX_COMMANDS: Record<string, string> = {
  eslint: "eslint --fix",
  oxlint: "oxlint --fix",
  biome: "biome lint --write",
};

/** The concrete thing an agent should do about a cluster. */
function suggestAction(issues: readonly Issue[], rule: string): string {
  const first = issues[0] as Issue;
  const where = `${first.file}:${first.line}`;
  const messages = new Set(issues.map((issue) => issue.message));
  if (issues.every((issue) => issue.fixable)) {
    const files = [...new Set(issues.map((issue) => issue.file))];
    const target = files.length <= 4 ? files.join(" ") : `<the ${files.length} files>`;
    return `Auto-fixable: run \`${FIX_COMMANDS[first.engine] ?? "the engine's fix"} ${target}\`, then re-check.`;
  }
  if (rule === "no-unused-vars") {
    return `Remove the ${issues.length} unused declarations (or prefix intentional ones with _); first at ${where}.`;
  }
  if (rule === "TS2307" || rule === "TS2792") {
    const module = mostCommon(issues.flatMap((issue) => quotedValues(issue.message).slice(0, 1)));
    return `Fix the import path or install the package${module ? ` '${module[0]}'` : ""}; every file importing it fails.`;
  }
  // The same message with the same specifics (types, names) everywhere points at one cause; a rule's fixed wording
  // ("Unreachable code.") does not.
  if (messages.size === 1 && issues.length > 1 && quotedValues(first.message).length > 0) {
    const token = quotedValues(first.message).at(-1);
    return `All ${issues.length} say the same${token ? ` about '${token}'` : ""}: likely one shared cause; fix it once. First at ${where}.`;
  }
  return `Fix the ${issues.length} places listed by get_issue_detail; first at ${where}.`;
}

/**
 * The quoted value most of a cluster's messages share, ignoring boilerplate: a value that sits at the same distance
 * from the end of every message that has it (like the '_' in "…should start with a '_'.") is part of the template.
 */
function sharedToken(issues: readonly Issue[]): [string, number] | null {
  const offsets = new Map<string, Set<number>>();
  const perIssue = issues.map((issue) => {
    const values = new Set<string>();
    for (const match of issue.message.matchAll(/'([^']{2,})'|"([^"]{2,})"|`([^`]{2,})`/g)) {
      const value = (match[1] ?? match[2] ?? match[3]) as string;
      values.add(value);
      const fromEnd = issue.message.length - (match.index ?? 0);
      offsets.set(value, (offsets.get(value) ?? new Set()).add(fromEnd));
    }
    return [...values];
  });
  const distinctMessages = new Set(issues.map((issue) => issue.message)).size;
  const meaningful = perIssue.flat().filter((value) => distinctMessages === 1 || (offsets.get(value)?.size ?? 0) > 1);
  const best = mostCommon(meaningful);
  return best && best[1] >= 2 && best[1] >= issues.length * 0.6 ? best : null;
}

function summarize(issues: readonly Issue[], ruleIds: readonly string[], fileCount: number): string {
  const label = ruleIds.join("/");
  const base = `${issues.length} ${label} issues in ${fileCount} file${fileCount === 1 ? "" : "s"}`;
  const messages = new Set(issues.map((issue) => issue.message));
  if (messages.size === 1) return `${base}: ${issues[0]?.message}`;
  const token = sharedToken(issues);
  if (token) return `${base}; ${token[1]} mention '${token[0]}' (e.g. ${issues[0]?.message})`.slice(0, 240);
  const hotspot = mostCommon(issues.map((issue) => issue.file));
  if (hotspot && fileCount > 1 && hotspot[1] >= 2 && hotspot[1] * 2 >= issues.length)
    return `${base}, mostly ${hotspot[0]} (${hotspot[1]}); e.g. ${issues[0]?.message}`.slice(0, 240);
  return `${base}; e.g. ${issues[0]?.message}`.slice(0, 240);
}

/**
 * Group issues by engine-neutral rule; a group of two or more issues is a cluster. Clusters come back in priority
 * order (then size, then id); their ids are derived from the rule so they stay the same across checks.
 * Sets `clusterId` on every clustered issue.
 */
export function clusterIssues(issues: Issue[], hash: (text: string) => string): ClusterGroup[] {
  const byRule = new Map<string, Issue[]>();
  for (const issue of issues) {
    const key = canonicalRule(issue.engine, issue.rule);
    const group = byRule.get(key);
    if (group) group.push(issue);
    else byRule.set(key, [issue]);
  }
  const groups: ClusterGroup[] = [];
  for (const [rule, members] of byRule) {
    if (members.length < 2) continue;
    const clusterId = `c${hash(`cluster\0${rule}`).slice(0, 7)}`;
    const fileCount = new Set(members.map((issue) => issue.file)).size;
    const ruleIds = [...new Set(members.map((issue) => issue.rule))].sort();
    for (const issue of members) issue.clusterId = clusterId;
    const errorsFirst = [...members].sort((a, b) => Number(a.severity !== "error") - Number(b.severity !== "error"));
    groups.push({
      issues: members,
      cluster: {
        clusterId,
        rootCauseSummary: summarize(members, ruleIds, fileCount),
        ruleIds,
        issueCount: members.length,
        fileCount,
        priority: priorityOf(members, fileCount),
        suggestedAction: suggestAction(members, rule),
        sampleIssueIds: errorsFirst.slice(0, SAMPLE_SIZE).map((issue) => issue.issueId),
      },
    });
  }
  return groups.sort(
    (a, b) => a.cluster.priority - b.cluster.priority || b.cluster.issueCount - a.cluster.issueCount || (a.cluster.clusterId < b.cluster.clusterId ? -1 : 1),
  );
}
