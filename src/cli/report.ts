import type { CheckResponse, Elsewhere, EngineName, EngineStatus, NotChecked, Pending, Severity } from "../core/contracts.ts";
import type { Issue } from "../core/issues.ts";
import { ENGINES } from "../engines/registry.ts";

/** A CI shard: the `index`-th (1-based) of `count` slices of the project. */
export interface Shard {
  index: number;
  count: number;
}

/** One issue as the CLI reports it: every issue, with its location and the engine's whole message. */
export interface CliIssue {
  /** The issue's full id (stable across runs while the issue stays; SARIF fingerprints use it). */
  id: string;
  file: string;
  line: number;
  col: number;
  severity: Severity;
  engine: EngineName;
  rule: string;
  message: string;
  fixable: boolean;
  clusterId: string | null;
  alsoReportedBy?: { engine: EngineName; rule: string }[];
}

/** `check --format json`: a CLI document (not the MCP response) listing every issue. */
export interface CliReport {
  tool: "signalint-mcp";
  version: string;
  projectRoot: string;
  status: CheckResponse["status"];
  shard: Shard | null;
  errorCount: number;
  warningCount: number;
  /** Issues outside the requested paths or the project root, or ignored by config (counted, not listed). */
  filteredOutCount: number;
  /** Files under the checked paths not (fully) checked, by reason (absent when none). */
  notChecked?: NotChecked[];
  /** A check of some paths: tsc errors in other files since the last check of the whole project (absent when none). */
  elsewhere?: Elsewhere;
  /** tsc answered the checked files and is still re-checking the rest of what a change may affect (status pending). */
  pending?: Pending;
  engines: Record<EngineName, EngineStatus>;
  clusters: { clusterId: string; priority: number; summary: string; issueCount: number }[];
  issues: CliIssue[];
}

/** Build the CLI report from the service's check result (its response and its full issue list). */
export function buildCliReport(
  response: CheckResponse,
  issues: readonly Issue[],
  facts: { version: string; projectRoot: string; shard: Shard | null },
): CliReport {
  const listed: CliIssue[] = issues.map((issue) => ({
    id: issue.fullId,
    file: issue.file,
    line: issue.line,
    col: issue.col,
    severity: issue.severity,
    engine: issue.engine,
    rule: issue.rule,
    message: issue.fullMessage ?? issue.message,
    fixable: issue.fixable,
    clusterId: issue.clusterId,
    ...(issue.alsoReportedBy ? { alsoReportedBy: issue.alsoReportedBy } : {}),
  }));
  return {
    tool: "signalint-mcp",
    version: facts.version,
    projectRoot: facts.projectRoot,
    status: response.status,
    shard: facts.shard,
    errorCount: listed.filter((issue) => issue.severity === "error").length,
    warningCount: listed.filter((issue) => issue.severity === "warning").length,
    filteredOutCount: response.filteredOutIssueCount ?? 0,
    ...(response.notChecked ? { notChecked: response.notChecked } : {}),
    ...(response.elsewhere ? { elsewhere: response.elsewhere } : {}),
    ...(response.pending ? { pending: response.pending } : {}),
    engines: response.engines,
    clusters: response.clusters.map((cluster) => ({
      clusterId: cluster.clusterId,
      priority: cluster.priority,
      summary: cluster.rootCauseSummary,
      issueCount: cluster.issueCount,
    })),
    issues: listed,
  };
}

/** Engines that applied but failed (the check is incomplete). */
export function failedEngines(report: Pick<CliReport, "engines">): [EngineName, EngineStatus][] {
  return (Object.entries(report.engines) as [EngineName, EngineStatus][]).filter(([, status]) => status.status === "error");
}

/** Why an engine that did not run is off: its own message (not installed, nothing to check), else the config or its default. */
function offReason(engine: EngineName, status: EngineStatus, switches: Partial<Record<EngineName, boolean>>): string {
  if (status.message) return status.message;
  if (switches[engine] === false) return "disabled in signalint.config.json (engines)";
  return ENGINES[engine].offReason ?? "off";
}

/**
 * What did not run, one line per engine that failed, is missing or is off (and why), then the files left unchecked:
 * every text verb prints these, so a check is never silently narrower than the project's own tools.
 */
export function notRunLines(
  report: { engines: Record<EngineName, EngineStatus>; notChecked?: readonly NotChecked[] },
  switches: Partial<Record<EngineName, boolean>> = {},
): string[] {
  const lines: string[] = [];
  for (const [engine, status] of Object.entries(report.engines) as [EngineName, EngineStatus][]) {
    if (status.status === "error") lines.push(`! ${engine} failed: ${status.message ?? status.code ?? "error"}`);
    else if (status.status === "disabled") lines.push(`- ${engine} did not run: ${offReason(engine, status, switches)}`);
  }
  for (const note of report.notChecked ?? []) {
    const more = note.count > note.sample.length ? `, … ${note.count - note.sample.length} more` : "";
    lines.push(`Not checked: ${note.count} file${note.count === 1 ? "" : "s"} ${note.reason} (${note.sample.join(", ")}${more})`);
  }
  return lines;
}

/**
 * Exit code as ESLint's: 1 when there are errors, when warnings exceed `maxWarnings` (-1: no limit), or when the check
 * is incomplete (an engine failed, files went unchecked, tsc still re-checks what a change may affect: never a pass);
 * else 0. Usage and configuration errors exit 2 elsewhere.
 */
export function exitCode(report: CliReport, maxWarnings: number): number {
  // status error with no failed engine: nothing type-checked the checked files (notChecked).
  // Errors elsewhere a change introduced (core/elsewhere.ts): the checked paths are fine, the project is not.
  if (report.errorCount > 0 || failedEngines(report).length > 0 || report.status === "error" || report.elsewhere?.introduced) return 1;
  // A pending answer is never a pass, whatever its status says of the named files (warnings only: issues_found).
  if (report.status === "pending" || report.pending) return 1;
  return maxWarnings >= 0 && report.warningCount > maxWarnings ? 1 : 0;
}

/** `check --format json`. */
export function formatJsonReport(report: CliReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
