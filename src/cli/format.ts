import type { CheckResponse, CompactCheckResponse, NormalizedIssue } from "../core/contracts.ts";
import { summarizeCheck } from "../mcp/summary.ts";

/** `check --format text`: every issue, grouped by cluster, then the summary. */
export function formatText(response: CheckResponse, issues: readonly NormalizedIssue[]): string {
  const lines: string[] = [];
  const line = (issue: NormalizedIssue) =>
    `  ${issue.file}:${issue.line}:${issue.col}  ${issue.severity}  ${issue.rule}  ${issue.message}  [${[issue.engine, ...(issue.alsoReportedBy ?? []).map((other) => other.engine)].join("+")}]`;
  const clustered = new Set<string>();
  for (const cluster of response.clusters) {
    lines.push(`${cluster.clusterId} [P${cluster.priority}] ${cluster.rootCauseSummary}`, `  → ${cluster.suggestedAction}`);
    for (const issue of issues.filter((entry) => entry.clusterId === cluster.clusterId)) {
      clustered.add(issue.issueId);
      lines.push(line(issue));
    }
  }
  const rest = issues.filter((issue) => !clustered.has(issue.issueId));
  if (rest.length) lines.push(response.clusters.length ? "Other issues:" : "Issues:", ...rest.map(line));
  for (const [engine, status] of Object.entries(response.engines)) {
    if (status.status === "error") lines.push(`! ${engine}: ${status.message ?? "failed"}`);
  }
  lines.push(summarizeCheck(response));
  return `${lines.join("\n")}\n`;
}

function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/** `check --format github`: one workflow command per issue, plus engine failures. */
export function formatGithub(response: CheckResponse, issues: readonly NormalizedIssue[]): string {
  const lines = issues.map(
    (issue) =>
      `::${issue.severity} file=${escapeProperty(issue.file)},line=${issue.line},col=${issue.col},title=${escapeProperty(`${issue.engine} ${issue.rule}`)}::${escapeData(issue.message)}`,
  );
  for (const [engine, status] of Object.entries(response.engines)) {
    if (status.status === "error") lines.push(`::error title=${escapeProperty(`signalint ${engine}`)}::${escapeData(status.message ?? "failed")}`);
  }
  return lines.length ? `${lines.join("\n")}\n` : "";
}

/** `check --format json`: the CheckResponse (compact keys with --compact). */
export function formatJson(response: CheckResponse | CompactCheckResponse): string {
  return `${JSON.stringify(response, null, 2)}\n`;
}
