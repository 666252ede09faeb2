import type { CliIssue, CliReport, Shard } from "./report.ts";
import type { RepositoryBase } from "./roots.ts";
import { failedEngines } from "./report.ts";

/** The SARIF rule id of an issue: engine and rule, so two engines' rules of one name stay apart. */
function ruleId(issue: Pick<CliIssue, "engine" | "rule">): string {
  return `${issue.engine}/${issue.rule}`;
}

/** A project-relative POSIX path as a relative URI reference (each segment percent-encoded). */
function relativeUri(file: string): string {
  return file.split("/").map(encodeURIComponent).join("/");
}

/**
 * A directory path as a file: URI ending in "/" (what originalUriBaseIds requires): `/repo` → `file:///repo/`,
 * `C:\\repo` → `file:///C:/repo/` (the drive's colon kept), `\\\\server\\share` → `file://server/share/`.
 */
export function directoryUri(path: string): string {
  const slashed = path.replace(/\\/g, "/");
  const encode = (segments: string) =>
    segments
      .split("/")
      .map((segment, index) => (index === 1 && /^[A-Za-z]:$/.test(segment) ? segment : encodeURIComponent(segment)))
      .join("/");
  if (slashed.startsWith("//")) {
    const [host = "", ...rest] = slashed.slice(2).split("/");
    return `file://${host}${encode(`/${rest.join("/")}`).replace(/\/?$/, "/")}`;
  }
  const absolute = slashed.startsWith("/") ? slashed : `/${slashed}`;
  return `file://${encode(absolute).replace(/\/?$/, "/")}`;
}

/**
 * `runAutomationDetails.id`: "category/run". GitHub code scanning keeps one analysis per category, so each shard has
 * its own category and the shards' uploads add up instead of replacing each other.
 */
export function automationId(shard: Shard | null): string {
  return shard ? `signalint/shard-${shard.index}-of-${shard.count}/` : "signalint/";
}

/**
 * `check --format sarif`: a SARIF 2.1.0 log with one run. Locations are relative to the repository root (`SRCROOT`,
 * where code scanning resolves them), whatever directory the project root is; `PROJECTROOT` names the project's
 * directory inside it. Without a repository both are the project root.
 */
export function toSarif(report: CliReport, base: RepositoryBase = { root: report.projectRoot, prefix: "" }): Record<string, unknown> {
  const ids = [...new Set(report.issues.map(ruleId))].sort();
  const index = new Map(ids.map((id, position) => [id, position]));
  const rules = ids.map((id) => {
    const [engine, ...rest] = id.split("/");
    return { id, name: rest.join("/"), shortDescription: { text: `${engine} rule ${rest.join("/")}` }, properties: { engine } };
  });
  const results = report.issues.map((issue) => ({
    ruleId: ruleId(issue),
    ruleIndex: index.get(ruleId(issue)),
    level: issue.severity,
    message: { text: issue.message },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: relativeUri(`${base.prefix}${issue.file}`), uriBaseId: "SRCROOT" },
          region: { startLine: issue.line, startColumn: issue.col },
        },
      },
    ],
    partialFingerprints: { "signalintIssueId/v1": issue.id },
    properties: { engine: issue.engine, fixable: issue.fixable, ...(issue.clusterId ? { clusterId: issue.clusterId } : {}) },
  }));
  const failures = failedEngines(report).map(([engine, status]) => ({
    level: "error",
    message: { text: `${engine}: ${status.message ?? "failed"}` },
    descriptor: { id: `signalint/${status.code ?? "engine_failed"}` },
    properties: { engine },
  }));
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: { driver: { name: "signalint", version: report.version, rules } },
        automationDetails: { id: automationId(report.shard) },
        originalUriBaseIds: {
          SRCROOT: { uri: directoryUri(base.root) },
          PROJECTROOT: base.prefix ? { uri: relativeUri(base.prefix), uriBaseId: "SRCROOT" } : { uri: directoryUri(report.projectRoot) },
        },
        columnKind: "utf16CodeUnits",
        invocations: [{ executionSuccessful: failures.length === 0, toolExecutionNotifications: failures }],
        results,
      },
    ],
  };
}

/** The SARIF log as text. */
export function formatSarif(report: CliReport, base?: RepositoryBase): string {
  return `${JSON.stringify(toSarif(report, base), null, 2)}\n`;
}
