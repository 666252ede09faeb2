import type { Cluster } from "./contracts.ts";
import { causeClusterTexts, editClusterTexts, ruleClusterTexts } from "./cluster-text.ts";
import { autoFixable, causeKey, type Issue, type IssueCause } from "./issues.ts";
import { templateQuoted } from "./normalize.ts";
import { isWithin } from "./paths.ts";
import { canonicalRule } from "./rules.ts";

/** A cluster spanning at least this many files is "systemic". */
export const SYSTEMIC_FILE_COUNT = 3;
/** Issue ids a cluster names: its example (get_issue_detail with the clusterId lists every one). */
const SAMPLE_SIZE = 1;

/** A cluster with the issues it groups (the service keeps these; responses carry only Cluster). */
export interface ClusterGroup {
  cluster: Cluster;
  issues: Issue[];
}

function priorityOf(issues: readonly Issue[], fileCount: number): number {
  const hasError = issues.some((issue) => issue.severity === "error");
  const allFixable = issues.every(autoFixable);
  const systemic = fileCount >= SYSTEMIC_FILE_COUNT;
  if (hasError) return systemic ? 1 : allFixable ? 3 : 2;
  return allFixable || systemic ? 5 : 4;
}

/** The previous check, so issues it already had are told from new ones (a new cause is never merged with old issues). */
export interface PreviousCheck {
  scope: readonly string[];
  issues: readonly Issue[];
}

function looseKey(issue: Issue): string {
  return [issue.file, issue.rule, templateQuoted(issue.message)].join("\0");
}

const MISSING_EXPORT = /^Module '"(\.{1,2}\/[^"]*)"' has no exported member (?:named )?'([^']+)'/;

/** Resolve a relative module specifier against the importing file (POSIX, no extension added). */
function resolveSpecifier(file: string, specifier: string): string {
  const parts = file.split("/").slice(0, -1);
  for (const part of specifier.split("/")) {
    if (part === "..") parts.pop();
    else if (part !== "." && part !== "") parts.push(part);
  }
  return parts.join("/");
}

/**
 * Causes an issue's text proves without a program (tsc's command line, TypeScript 7): an import naming an export its
 * relative module lacks names that module and export exactly.
 */
function textCauses(issue: Issue): IssueCause[] {
  if (issue.engine !== "tsc" || !["TS2305", "TS2614", "TS2724"].includes(issue.rule)) return [];
  const match = MISSING_EXPORT.exec(issue.message);
  if (!match) return [];
  const module = resolveSpecifier(issue.file, match[1] as string);
  return [{ file: module, name: module, line: 1, module: true, member: { name: match[2] as string, line: 1 } }];
}

/** For each issue, the cause it shares with the most other issues (ties: the most specific, listed first). */
function chooseCauses(issues: readonly Issue[]): Map<Issue, IssueCause> {
  for (const issue of issues) if (!issue.causes?.length && textCauses(issue).length) issue.causes = textCauses(issue);
  const counts = new Map<string, number>();
  for (const issue of issues) for (const key of new Set(issue.causes?.map(causeKey))) counts.set(key, (counts.get(key) ?? 0) + 1);
  const chosen = new Map<Issue, IssueCause>();
  for (const issue of issues) {
    let best: IssueCause | undefined;
    for (const cause of issue.causes ?? []) if ((counts.get(causeKey(cause)) ?? 0) > (best ? (counts.get(causeKey(best)) ?? 0) : 1)) best = cause;
    if (best) chosen.set(issue, best);
  }
  return chosen;
}

/** Example order of a cause cluster: errors first, then the issue nearest the cause (its file, nearest line). */
function nearestFirst(issues: readonly Issue[], cause: IssueCause): Issue[] {
  const distance = (issue: Issue) => (issue.file === cause.file ? Math.abs(issue.line - cause.line) : Number.MAX_SAFE_INTEGER);
  return [...issues].sort((a, b) => Number(a.severity !== "error") - Number(b.severity !== "error") || distance(a) - distance(b));
}

function makeGroup(clusterId: string, members: Issue[], ordered: readonly Issue[], texts: { summary: string; action: string }): ClusterGroup {
  const fileCount = new Set(members.map((issue) => issue.file)).size;
  for (const issue of members) issue.clusterId = clusterId;
  const errorsFirst = [...ordered].sort((a, b) => Number(a.severity !== "error") - Number(b.severity !== "error"));
  return {
    issues: members,
    cluster: {
      clusterId,
      rootCauseSummary: texts.summary,
      ruleIds: [...new Set(members.map((issue) => issue.rule))].sort(),
      issueCount: members.length,
      fileCount,
      priority: priorityOf(members, fileCount),
      suggestedAction: texts.action,
      sampleIssueIds: errorsFirst.slice(0, SAMPLE_SIZE).map((issue) => issue.issueId),
    },
  };
}

function causeGroup(members: Issue[], chosen: Map<Issue, IssueCause>, hash: (text: string) => string): ClusterGroup {
  const example = chosen.get(members[0] as Issue) as IssueCause;
  const ordered = nearestFirst(members, example);
  const cause = chosen.get(ordered[0] as Issue) as IssueCause;
  const sameMember = new Set(members.map((issue) => chosen.get(issue)?.member?.name ?? "")).size === 1 && cause.member !== undefined;
  const fileCount = new Set(members.map((issue) => issue.file)).size;
  return makeGroup(`c${hash(`cause\0${causeKey(cause)}`).slice(0, 7)}`, members, ordered, causeClusterTexts(ordered, cause, sameMember, fileCount));
}

/** A declaration an edit can change (not a member a type lacks, not an export a module lacks). */
const editable = (cause: IssueCause | undefined): cause is IssueCause => cause !== undefined && cause.absent === undefined && !cause.module;

/**
 * One edit's errors: issues new since the previous check whose causes are declarations of one file, reaching two or
 * more of them (a hub edit changing `User.id` and `makeUser(id)` gives TS2322 at some sites and TS2345 at others).
 * A cause group joins only when all its issues are new; an issue no other shares joins by its first cause. Returns
 * the file's groups of issues by cause key, only for files with two or more causes.
 */
function editGroups(issues: readonly Issue[], chosen: Map<Issue, IssueCause>, byCause: Map<string, Issue[]>, isNew: (issue: Issue) => boolean) {
  const byFile = new Map<string, Map<string, { cause: IssueCause; issues: Issue[] }>>();
  for (const issue of issues) {
    if (!isNew(issue)) continue;
    const cause = chosen.get(issue) ?? issue.causes?.[0];
    if (!editable(cause) || (chosen.has(issue) && !(byCause.get(causeKey(cause)) ?? []).every(isNew))) continue;
    const groups = byFile.get(cause.file) ?? (byFile.set(cause.file, new Map()).get(cause.file) as Map<string, { cause: IssueCause; issues: Issue[] }>);
    const group =
      groups.get(causeKey(cause)) ?? (groups.set(causeKey(cause), { cause, issues: [] }).get(causeKey(cause)) as { cause: IssueCause; issues: Issue[] });
    group.issues.push(issue);
  }
  return [...byFile].filter(([, groups]) => groups.size >= 2).map(([file, groups]) => ({ file, parts: [...groups.values()] }));
}

function editGroup(file: string, parts: { cause: IssueCause; issues: Issue[] }[], hash: (text: string) => string): ClusterGroup {
  const sorted = [...parts].sort((a, b) => b.issues.length - a.issues.length || a.cause.line - b.cause.line);
  const members = sorted.flatMap((part) => part.issues);
  const ordered = nearestFirst(members, (sorted[0] as { cause: IssueCause }).cause);
  const fileCount = new Set(members.map((issue) => issue.file)).size;
  const causes = sorted.map((part) => ({ cause: part.cause, count: part.issues.length }));
  return makeGroup(`c${hash(`edit\0${file}`).slice(0, 7)}`, members, ordered, editClusterTexts(ordered, causes, fileCount));
}

/**
 * Group issues into clusters of two or more: first by the declaration they are about (TypeScript issues that carry
 * causes), then the rest by engine-neutral rule, keeping issues new since `previous` apart from ones it already had.
 * Clusters come back in priority order (then size, then id); ids derive from the cause or rule so they stay the
 * same across checks. Sets `clusterId` on every clustered issue.
 */
export function clusterIssues(issues: Issue[], hash: (text: string) => string, previous?: PreviousCheck): ClusterGroup[] {
  const chosen = chooseCauses(issues);
  const byCause = new Map<string, Issue[]>();
  const byRule = new Map<string, Issue[]>();
  const known = previous && new Set(previous.issues.map(looseKey));
  const isNew = (issue: Issue) => known !== undefined && previous?.scope.some((scope) => isWithin(issue.file, scope)) === true && !known.has(looseKey(issue));
  const add = (map: Map<string, Issue[]>, key: string, issue: Issue) => (map.get(key) ?? map.set(key, []).get(key))?.push(issue);
  for (const issue of issues) {
    const cause = chosen.get(issue);
    if (cause) add(byCause, causeKey(cause), issue);
  }
  const groups: ClusterGroup[] = [];
  const edited = new Set<Issue>();
  for (const { file, parts } of editGroups(issues, chosen, byCause, isNew)) {
    for (const part of parts) for (const issue of part.issues) edited.add(issue);
    groups.push(editGroup(file, parts, hash));
  }
  for (const members of byCause.values()) if (members.length >= 2 && !edited.has(members[0] as Issue)) groups.push(causeGroup(members, chosen, hash));
  for (const issue of issues) {
    if (edited.has(issue) || (byCause.get(chosen.has(issue) ? causeKey(chosen.get(issue) as IssueCause) : "")?.length ?? 0) >= 2) continue;
    add(byRule, `${canonicalRule(issue.engine, issue.rule)}${isNew(issue) ? "\0new" : ""}`, issue);
  }
  for (const [key, members] of byRule) {
    if (members.length < 2) continue;
    const [rule, fresh] = key.split("\0") as [string, string | undefined];
    const ruleIds = [...new Set(members.map((issue) => issue.rule))].sort();
    const fileCount = new Set(members.map((issue) => issue.file)).size;
    groups.push(
      makeGroup(`c${hash(`cluster\0${rule}${fresh ? "\0new" : ""}`).slice(0, 7)}`, members, members, ruleClusterTexts(members, rule, ruleIds, fileCount)),
    );
  }
  return groups.sort(
    (a, b) => a.cluster.priority - b.cluster.priority || b.cluster.issueCount - a.cluster.issueCount || (a.cluster.clusterId < b.cluster.clusterId ? -1 : 1),
  );
}
