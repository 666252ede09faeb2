import { isAbsolute } from "node:path";
import { parseArgs } from "node:util";
import { ENGINE_NAMES, type CheckResponse, type Engines } from "../core/contracts.ts";
import { quoteInput } from "../core/errors.ts";
import { relativeToRoot } from "../core/paths.ts";
import { compactCheckResponse } from "../core/response.ts";
import { parseShard } from "../core/shards.ts";
import { describeEvent } from "../mcp/progress.ts";
import type { CheckEvent } from "../service/check/check-events.ts";
import { ownShare, shardPaths } from "../service/project/shards.ts";
import { SignalintService } from "../service/signalint.ts";
import type { Runtime } from "../runtime/types.ts";
import { VERSION } from "../version.ts";
import { formatGithub, formatText } from "./format.ts";
import type { CliIo } from "./io.ts";
import { buildCliReport, exitCode, formatJsonReport, type CliReport, type Shard } from "./report.ts";
import { formatSarif } from "./sarif.ts";
import { UsageError } from "./usage.ts";

const FORMATS = ["text", "json", "sarif", "github", "response"] as const;

/**
 * CLI paths are relative to the working directory when it is inside the project root (no paths: the working
 * directory itself); from outside it (e.g. --root elsewhere) they are relative to the root (no paths: the root).
 */
export function cliPaths(runtime: Runtime, project: { root: string; realRoot: string }, positionals: readonly string[]): string[] {
  const cwd = runtime.cwd();
  const base = relativeToRoot(project.root, cwd) ?? relativeToRoot(project.realRoot, cwd);
  if (base === null) return positionals.length ? [...positionals] : ["."];
  if (!positionals.length) return [base];
  return positionals.map((path) => (base === "." || isAbsolute(path) || /^[A-Za-z]:/.test(path) ? path : `${base}/${path}`));
}

/** A one-line progress display on a terminal's stderr (rewritten in place); silent elsewhere. */
function progressLine(io: CliIo): { onEvent?: (event: CheckEvent) => void; done: () => void } {
  if (!io.stderrIsTty || io.runtime.env("CI")) return { done: () => {} };
  let shown = false;
  return {
    onEvent: (event) => {
      shown = true;
      io.runtime.writeStderr(`\r\x1b[Ksignalint: ${describeEvent(event)}`);
    },
    done: () => {
      if (shown) io.runtime.writeStderr("\r\x1b[K");
    },
  };
}

/** The report of a shard that got no unit (more shards than packages): nothing to check, so nothing ran. */
function emptyShardReport(root: string, shard: Shard): CliReport {
  const engines = Object.fromEntries(ENGINE_NAMES.map((engine) => [engine, { status: "disabled" }])) as Engines;
  const response = { status: "clean", engines, clusters: [], filteredOutIssueCount: 0 } as unknown as CheckResponse;
  return buildCliReport(response, [], { version: VERSION, projectRoot: root, shard });
}

/** Run one check for the CLI and build its report from the service's result (every issue, not the MCP payload). */
export async function cliCheck(io: CliIo, service: SignalintService, paths: readonly string[], shard: Shard | null): Promise<CliReport> {
  const progress = progressLine(io);
  try {
    const checked = await service.check(paths, false, { onEvent: progress.onEvent, tool: "cli" });
    const all = service.store.latest()?.issues ?? [];
    const { response, issues } = shard ? ownShare(checked, all, paths) : { response: checked, issues: all };
    return buildCliReport(response, issues, { version: VERSION, projectRoot: service.project.root, shard });
  } finally {
    progress.done();
  }
}

function parseCheckArgs(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      format: { type: "string", default: "text" },
      "max-warnings": { type: "string" },
      shard: { type: "string" },
      root: { type: "string" },
      compact: { type: "boolean", default: false },
    },
  });
  const format = values.format as (typeof FORMATS)[number];
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(", ")}, not ${quoteInput(values.format)}`);
  const rawMax = values["max-warnings"];
  if (rawMax !== undefined && !/^-?\d{1,9}$/.test(rawMax)) throw new UsageError(`--max-warnings must be a whole number, not ${quoteInput(rawMax)}`);
  const shard = values.shard === undefined ? null : parseShard(values.shard);
  if (values.shard !== undefined && !shard) throw new UsageError(`--shard must be I/N with 1 ≤ I ≤ N, not ${quoteInput(values.shard)}`);
  if (shard && positionals.length) throw new UsageError("--shard splits the whole project; give no paths with it");
  return { format, maxWarnings: rawMax === undefined ? -1 : Number(rawMax), shard, root: values.root, compact: values.compact === true, positionals };
}

/** `signalint-mcp check`. */
export async function runCheck(io: CliIo, argv: string[]): Promise<number> {
  const options = parseCheckArgs(argv);
  const service = await SignalintService.create(io.runtime, { root: options.root, ...(options.compact ? { compact: true } : {}) });
  let report: CliReport;
  let suggested = new Map<string, string>();
  let response: CheckResponse | null = null;
  try {
    const paths = options.shard
      ? (await shardPaths(io.runtime, service.project.root, options.shard.index, options.shard.count)).paths
      : cliPaths(io.runtime, service.project, options.positionals);
    report = paths.length ? await cliCheck(io, service, paths, options.shard) : emptyShardReport(service.project.root, options.shard as Shard);
    const latest = service.store.latest();
    response = latest?.response ?? null;
    if (latest) suggested = new Map(latest.response.clusters.map((cluster) => [cluster.clusterId, cluster.suggestedAction]));
  } finally {
    service.close();
  }
  // Compact keys (--compact, SIGNALINT_COMPACT, config `compact`) apply to the MCP response the CLI prints.
  if (response && service.project.settings.compact) response = compactCheckResponse(response) as unknown as CheckResponse;
  if (options.format === "response") io.stdout(`${JSON.stringify(response ?? report, null, 2)}\n`);
  else if (options.format === "json") io.stdout(formatJsonReport(report));
  else if (options.format === "sarif") io.stdout(formatSarif(report));
  else if (options.format === "github") io.stdout(formatGithub(report));
  else io.stdout(formatText(report, suggested));
  return exitCode(report, options.maxWarnings);
}
