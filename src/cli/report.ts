import type { CheckResponse, Elsewhere, EngineName, EngineStatus, NotChecked, Severity } from "../core/contracts.ts";
import type { Issue } from "../core/issues.ts";

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
  /** A check of files (the hook's): tsc errors in other files the change introduced (absent when none). */
  elsewhere?: Elsewhere;
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

/**
 * Exit code as ESLint's: 1 when there are errors, when warnings exceed `maxWarnings` (-1: no limit), or when an engine
 * failed (an incomplete check is never a pass); else 0. Usage and configuration errors exit 2 elsewhere.
 */
export function exitCode(report: CliReport, maxWarnings: number): number {
  // status error with no failed engine: nothing type-checked the checked files (notChecked).
  if (report.errorCount > 0 || failedEngines(report).length > 0 || report.status === "error") return 1;
  return maxWarnings >= 0 && report.warningCount > maxWarnings ? 1 : 0;
}

/** `check --format json`. */
export function formatJsonReport(report: CliReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}
