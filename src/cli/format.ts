import type { EngineName } from "../core/contracts.ts";
import { failedEngines, notRunLines, type CliIssue, type CliReport } from "./report.ts";

/** Cluster advice that names MCP tools is for agents; the CLI does not print it. */
const MCP_ONLY = /\b(get_issue_detail|check_files|check_project|after_edit_check|artifact_read)\b/;

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

/** The closing line of the text format (no MCP hints: the CLI's reader is a person or CI, not an agent). */
export function summaryLine(report: CliReport): string {
  const failed = failedEngines(report);
  const shard = report.shard ? ` (shard ${report.shard.index}/${report.shard.count})` : "";
  // Issues outside the checked paths were counted (filteredOutLine): the checked ones have none.
  if (report.status === "clean") return report.filteredOutCount > 0 ? `No issues in the checked paths${shard}.` : `No issues found${shard}.`;
  if (report.status === "pending" && report.pending && report.errorCount + report.warningCount === 0)
    return `No issues in the checked paths yet: ${stillRechecking(report.pending)}, so the check is incomplete; run it again for the complete answer.`;
  if (report.elsewhere && report.errorCount + report.warningCount === 0 && !failed.length && report.status !== "error")
    return `No issues in the checked paths${shard}, but other files of their programs have ${report.elsewhere.engines.join(" and ")} errors (above)${report.pending ? `; ${stillRechecking(report.pending)}, so the check is incomplete` : ""}.`;
  if (report.status === "error" && !failed.length && report.errorCount + report.warningCount === 0) {
    if (!Object.values(report.engines).some((status) => status.status === "ok")) return `Not checked: no engine ran${shard}.`;
    return `Not checked${shard}: the files above were not checked by every checker the project uses.`;
  }
  const counts = `${plural(report.errorCount + report.warningCount, "problem")} (${plural(report.errorCount, "error")}, ${plural(report.warningCount, "warning")})${shard}`;
  if (failed.length) return `Check incomplete: ${failed.map(([engine]) => engine).join(", ")} failed; ${counts}.`;
  if (report.status === "error") return `Check incomplete: the files above were not checked by every checker the project uses; ${counts}.`;
  // Issues in the checked paths while tsc still re-checks what the change may affect: said, never a whole answer.
  if (report.pending)
    return `${counts} in the checked paths so far: ${stillRechecking(report.pending)}, so the check is incomplete; run it again for the complete answer.`;
  return `${counts}.`;
}

/** What a pending answer's tsc programs are still doing. */
function stillRechecking({ programs, files }: NonNullable<CliReport["pending"]>): string {
  return `${plural(programs, "tsc program")} (${plural(files, "more file")} a change may affect) ${programs === 1 ? "is" : "are"} still being re-checked`;
}

/**
 * What filteredOutCount means: engines also report on files outside the checked paths (tsc checks the whole program)
 * and on files the config ignores; those are counted, not listed.
 */
export function filteredOutLine(count: number): string {
  const them = count === 1 ? "it" : "them";
  return `(${plural(count, "more issue")} outside the checked paths or in files signalint.config.json ignores: not listed; check the whole project to see ${them})`;
}

/**
 * The errors outside the checked paths that no earlier check of the whole project showed (a rename in a.ts that
 * broke b.ts; an exported function made async that leaves its caller's promise floating, ESLint's): how many, the first few. Never summed into the checked paths' counts; the exit code counts them.
 */
function elsewhereLines({ elsewhere }: CliReport): string[] {
  if (!elsewhere) return [];
  const count = elsewhere.introduced || (elsewhere.unattributed ?? 0);
  const what = elsewhere.introduced ? "not there at the last check of the whole project" : "not known to be this change's";
  const first = elsewhere.issues.map(
    (issue) => `  ${issue.file}:${issue.line}:${issue.col}  ${issue.severity}  ${issue.rule}  ${issue.message.split("\n")[0]}  [${issue.engine}]`,
  );
  const more = count > elsewhere.issues.length ? [`  … ${count - elsewhere.issues.length} more: check the whole project to see them`] : [];
  return [
    `Elsewhere: ${plural(count, `${elsewhere.engines.join(" and ")} error`)} in other files of these files' programs or importers, ${what}:`,
    ...first,
    ...more,
  ];
}

/** `check --format text`: every issue, grouped by cluster, then what did not run (one line per engine, and why) and the summary. */
export function formatText(
  report: CliReport,
  suggestedActions: ReadonlyMap<string, string> = new Map(),
  switches: Partial<Record<EngineName, boolean>> = {},
): string {
  const lines: string[] = [];
  const line = (issue: CliIssue) =>
    `  ${issue.file}:${issue.line}:${issue.col}  ${issue.severity}  ${issue.rule}  ${issue.message.split("\n")[0]}  [${[issue.engine, ...(issue.alsoReportedBy ?? []).map((other) => other.engine)].join("+")}]`;
  for (const cluster of report.clusters) {
    lines.push(`${cluster.clusterId} [P${cluster.priority}] ${cluster.summary}`);
    const action = suggestedActions.get(cluster.clusterId);
    if (action && !MCP_ONLY.test(action)) lines.push(`  → ${action}`);
    lines.push(...report.issues.filter((issue) => issue.clusterId === cluster.clusterId).map(line));
  }
  const clustered = new Set(report.clusters.map((cluster) => cluster.clusterId));
  const rest = report.issues.filter((issue) => issue.clusterId === null || !clustered.has(issue.clusterId));
  if (rest.length) lines.push(report.clusters.length ? "Other issues:" : "Issues:", ...rest.map(line));
  // What did not run (failed, missing, off) and why: a check is never silently narrower than it looks.
  lines.push(...notRunLines(report, switches));
  lines.push(...elsewhereLines(report));
  // The errors listed under Elsewhere (tsc's, and ESLint's in the importers it linted with the named files) are among
  // the counted ones: "not listed" counts only the rest.
  const unlisted = report.filteredOutCount - (report.elsewhere?.issues.length ?? 0);
  if (unlisted > 0) lines.push(filteredOutLine(unlisted));
  lines.push(summaryLine(report));
  return `${lines.join("\n")}\n`;
}

function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

/**
 * `check --format github`: one workflow command per issue, plus one `::error` per failed engine. GitHub resolves
 * `file=` against the repository root: `prefix` is the project root's path there ("" or "app/").
 */
export function formatGithub(report: CliReport, prefix = ""): string {
  const lines = report.issues.map(
    (issue) =>
      `::${issue.severity} file=${escapeProperty(`${prefix}${issue.file}`)},line=${issue.line},col=${issue.col},title=${escapeProperty(`${issue.engine} ${issue.rule}`)}::${escapeData(issue.message)}`,
  );
  for (const [engine, status] of failedEngines(report)) {
    lines.push(`::error title=${escapeProperty(`signalint ${engine}`)}::${escapeData(status.message ?? "failed")}`);
  }
  return lines.length ? `${lines.join("\n")}\n` : "";
}
