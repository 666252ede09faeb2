import { ENGINE_NAMES, type CheckResponse, type Engines } from "../core/contracts.ts";
import { quoteInput } from "../core/errors.ts";
import { relativeToRoot } from "../core/paths.ts";
import { parseShard } from "../core/shards.ts";
import { describeEvent } from "../mcp/progress.ts";
import type { CheckEvent } from "../service/job/check-events.ts";
import { ownShare, shardPaths } from "../service/project/shards.ts";
import { openApi, type OpenedApi } from "../client/open.ts";
import { pathApi } from "../runtime/path-api.ts";
import type { Runtime } from "../runtime/types.ts";
import { VERSION } from "../version.ts";
import { formatGithub, formatText } from "./format.ts";
import type { CliIo } from "./io.ts";
import { buildCliReport, exitCode, failedEngines, formatJsonReport, type CliReport, type Shard } from "./report.ts";
import { defineCommand, ROOT_OPTION, type OptionValues } from "./command.ts";
import { noteRoot, repositoryBase, rootOfPaths } from "./roots.ts";
import { compactCheckResponse } from "../core/response.ts";
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
  const { isAbsolute } = pathApi(runtime);
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

/**
 * Run one check for the CLI and build its report from the service's result (every issue, not the MCP payload).
 * `incremental`: a check_files (the hook's, after an edit: tsc errors it caused in other files are `elsewhere`).
 */
export async function cliCheck(
  io: CliIo,
  opened: OpenedApi,
  paths: readonly string[],
  shard: Shard | null,
  { incremental = false }: { incremental?: boolean } = {},
): Promise<{ report: CliReport; response: CheckResponse }> {
  const progress = progressLine(io);
  try {
    const answer = await opened.api.check({ paths, incremental, tool: "cli" }, { onEvent: progress.onEvent });
    const { response, issues } = shard ? ownShare(answer.response, answer.issues, paths) : answer;
    return { report: buildCliReport(response, issues, { version: VERSION, projectRoot: opened.projectRoot, shard }), response };
  } finally {
    progress.done();
  }
}

/** The check's options, as the parser takes them and `check --help` prints them. */
const CHECK_OPTIONS = {
  format: {
    type: "string",
    value: "FORMAT",
    help:
      "text (default: every issue grouped by cluster), json (every issue with its location), sarif (SARIF 2.1.0), " +
      "github (workflow annotations) or response (the MCP server's CheckResponse)",
  },
  compact: { type: "boolean", help: "compact keys in the response format (v, total, remaining, omitted, filteredOut)" },
  "max-warnings": { type: "string", value: "N", help: "exit 1 when there are more than N warnings (default: warnings alone exit 0)" },
  shard: {
    type: "string",
    value: "I/N",
    help:
      "check only the I-th of N slices of the project, split by package and tsconfig project (for a CI matrix; the " +
      "shards' issues add up to the whole check; no paths with --shard)",
  },
  "cache-dir": {
    type: "string",
    value: "DIR",
    help:
      "the cache directory for this run: persisted TypeScript state and the lint cache are read from and written to DIR " +
      "(for a CI cache step; checks in this process, never in a daemon; DIR must be outside the project)",
  },
  root: ROOT_OPTION,
} as const;

function checkOptions(values: OptionValues<typeof CHECK_OPTIONS>, positionals: string[]) {
  const format = (values.format ?? "text") as (typeof FORMATS)[number];
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(", ")}, not ${quoteInput(values.format ?? "")}`);
  const rawMax = values["max-warnings"];
  if (rawMax !== undefined && !/^-?\d{1,9}$/.test(rawMax)) throw new UsageError(`--max-warnings must be a whole number, not ${quoteInput(rawMax)}`);
  const shard = values.shard === undefined ? null : parseShard(values.shard);
  if (values.shard !== undefined && !shard) throw new UsageError(`--shard must be I/N with 1 ≤ I ≤ N, not ${quoteInput(values.shard)}`);
  if (shard && positionals.length) throw new UsageError("--shard splits the whole project; give no paths with it");
  const cacheDir = values["cache-dir"];
  if (cacheDir !== undefined && !cacheDir.trim()) throw new UsageError("--cache-dir needs a directory");
  return { format, maxWarnings: rawMax === undefined ? -1 : Number(rawMax), shard, root: values.root, compact: values.compact, cacheDir, positionals };
}

/** The MCP tools the response's advice may name, and what the command line offers instead. */
const CLI_ADVICE: [RegExp, string][] = [
  [/\(get_issue_detail lists its (\d+) locations\)/, "(signalint-mcp check --format json lists its $1 locations)"],
  [/then check_files the files you changed/, "then run signalint-mcp check on the files you changed"],
];

/** The CheckResponse as `--format response` prints it: compact keys when asked, advice naming the CLI, not MCP tools. */
function cliResponse(response: CheckResponse, compact: boolean): CheckResponse {
  const nextStep = response.nextStep && CLI_ADVICE.reduce((text, [pattern, replacement]) => text.replace(pattern, replacement), response.nextStep);
  const shaped = nextStep ? { ...response, nextStep } : response;
  // Compact keys (--compact, SIGNALINT_COMPACT, config `compact`) apply to the MCP response the CLI prints.
  return compact ? (compactCheckResponse(shaped) as unknown as CheckResponse) : shaped;
}

/** `signalint-mcp check`. */
async function runCheck(io: CliIo, options: ReturnType<typeof checkOptions>): Promise<number> {
  const fromPaths = options.root === undefined && !options.shard ? await rootOfPaths(io.runtime, options.positionals) : undefined;
  // The project's daemon answers when one may run (a second check is then warm); else a service in this process.
  const opened = await openApi(io.runtime, {
    root: options.root ?? fromPaths,
    ...(options.compact ? { compact: true } : {}),
    ...(options.cacheDir ? { cacheDir: options.cacheDir } : {}),
    oneShot: true,
  });
  if (opened.notice) io.runtime.writeStderr(`${opened.notice}\n`);
  const root = opened.projectRoot;
  let report: CliReport;
  let suggested = new Map<string, string>();
  let response: CheckResponse | null = null;
  try {
    const paths = options.shard
      ? (await shardPaths(io.runtime, root, options.shard.index, options.shard.count)).paths
      : fromPaths
        ? options.positionals.map((path) => pathApi(io.runtime).resolve(io.runtime.cwd(), path))
        : cliPaths(io.runtime, opened.project, options.positionals);
    await noteRoot(io, root, paths, fromPaths ? "paths" : options.root ? "option" : "cwd");
    if (paths.length) {
      ({ report, response } = await cliCheck(io, opened, paths, options.shard));
      suggested = new Map(response.clusters.map((cluster) => [cluster.clusterId, cluster.suggestedAction]));
    } else report = emptyShardReport(root, options.shard as Shard);
  } finally {
    await opened.close();
  }
  if (response) response = cliResponse(response, opened.settings.compact);
  if (options.format === "response") io.stdout(`${JSON.stringify(response ?? report, null, 2)}\n`);
  else if (options.format === "json") io.stdout(formatJsonReport(report));
  else if (options.format === "sarif") io.stdout(formatSarif(report, await repositoryBase(io.runtime, root)));
  else if (options.format === "github") io.stdout(formatGithub(report, (await repositoryBase(io.runtime, root)).prefix));
  else io.stdout(formatText(report, suggested, opened.settings.engines));
  const code = exitCode(report, options.maxWarnings);
  const incomplete = report.status === "error" || report.status === "pending" || !!report.pending || failedEngines(report).length > 0;
  if (code === 1 && !incomplete && report.errorCount === 0 && !report.elsewhere?.introduced)
    io.runtime.writeStderr(
      `signalint-mcp: ${report.warningCount} warnings are more than --max-warnings ${options.maxWarnings}, so the check fails (exit 1): fix some, or raise the limit\n`,
    );
  return code;
}

/** The check verb, declared once for its parser and its help. */
export const checkCommand = defineCommand({
  name: "check",
  summary: "check the project and print the result (text, json, sarif, github, response)",
  positionals: "[paths…]",
  description:
    "Check the project with its own Oxlint, tsc, Biome and ESLint. Paths are relative to the working directory (default: " +
    "the working directory). The project root is found from the working directory; when every path lies outside that " +
    "project, it is found from the paths instead (--root overrides both).",
  options: CHECK_OPTIONS,
  notes:
    "Exit codes: 0 no errors (and warnings within --max-warnings); 1 errors, too many warnings, or the check is\n" +
    'incomplete (an engine failed, or files were not checked that the project\'s own tools check: see "Not checked"),\n' +
    'or tsc errors outside the paths that the last check of the whole project did not have (see "Elsewhere");\n' +
    "2 usage or configuration error.\nA progress line is shown on stderr when it is a terminal (not under CI).",
  run: (io, values, positionals) => runCheck(io, checkOptions(values, positionals)),
});
