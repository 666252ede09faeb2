import { join, relative } from "node:path";
import { ENGINE_NAMES, type EngineName } from "../../core/contracts.ts";
import { addDevCommand, installHint, resolveEngine, yarnPnp } from "../../engines/resolve.ts";
import type { NodeCommand, ResolvedEngine } from "../../engines/types.ts";
import type { Runtime } from "../../runtime/types.ts";
import { enabledEngines, eslintLegacy } from "../check/fan-out.ts";
import { eslintProjectDirs, eslintScope, projectFlatConfigs } from "../lint/eslint-scope.ts";
import { eslintConfigLookupFlag } from "../../engines/eslint.ts";
import { unsupportedLinters } from "../lint/linter-choice.ts";
import { oxlintScope } from "../lint/oxlint-scope.ts";
import { choosePrograms, describePrograms } from "../tsc/tsc-programs.ts";
import { CONFIG_FILE, type Project } from "../project/project.ts";
import { engineProblems } from "./engine-problems.ts";

/** What doctor reads: the project, the runtime and how JS engine entries are run. */
export interface DoctorInputs {
  runtime: Runtime;
  project: Project;
  node: NodeCommand | null;
}

/** What `signalint-mcp doctor` reports: where things are and how engines resolve. */
export interface DoctorReport {
  projectRoot: string;
  stateDir: string;
  /** A `.signalint` directory in the project tree (an earlier version's state, or the repository's): never read. */
  legacyStateDir: string | null;
  /** Where generated tsc files go (outside the project). */
  cacheDir: string;
  configFile: string | null;
  /** What is wrong with the config file or the variables (the defaults are shown instead); empty when all is well. */
  configErrors: string[];
  payloadMode: string;
  compact: boolean;
  /** The oxlintTypeAware setting (oxlint --type-aware when oxlint-tsgolint is installed). */
  oxlintTypeAware: boolean;
  runtime: string;
  node: string | null;
  engines: Record<EngineName, { enabled: boolean | string; resolved: Omit<ResolvedEngine, "engine"> | null; hint?: string }>;
  /** The TypeScript programs a check runs and why (root, reference, script, workspace package, typescript.projects). */
  typescriptPrograms: string[];
  /** How linters run: ESLint's legacy mode, linters the project uses that Signalint cannot run. */
  linterNotes: string[];
  /** Engines the project uses that cannot run here, with why (doctor exits 1): see engineProblems. */
  problems: string[];
  /** The project's daemon and its memory (filled by the CLI, which may reach it; absent where nobody asked). */
  daemon?: DaemonMemory;
}

/** A running daemon's pid and resident memory (its own and its warm TypeScript hosts'), or why none runs. */
export type DaemonMemory = { running: true; pid: number; rssBytes: number; hostsRssBytes: number } | { running: false; off?: string };

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/** The doctor line on the daemon: pid and memory, or that none is running (and why none may, when it is off). */
function daemonLine(daemon: DaemonMemory): string {
  if (!daemon.running) return `daemon         no daemon running${daemon.off ? ` (off: ${daemon.off})` : ""}`;
  return `daemon         pid ${daemon.pid}: ${mb(daemon.rssBytes)} resident; its warm TypeScript hosts ${mb(daemon.hostsRssBytes)}`;
}

/** Resolve every engine without running a check. */
export async function diagnose(service: DoctorInputs, configErrors: readonly string[] = []): Promise<DoctorReport> {
  const { runtime, project } = service;
  const enabled = await enabledEngines(runtime, project.root, project.settings.engines);
  const engines = {} as DoctorReport["engines"];
  const pnp = await yarnPnp(runtime, project.root);
  const add = await addDevCommand(runtime, project.root);
  for (const engine of ENGINE_NAMES) {
    const resolved = await resolveEngine(runtime, engine, { start: project.root, node: service.node });
    const { engine: _name, ...rest } = resolved ?? { engine };
    engines[engine] = {
      enabled: enabled[engine],
      resolved: resolved ? (rest as Omit<ResolvedEngine, "engine">) : null,
      ...(resolved ? {} : { hint: installHint(engine, pnp, add) }),
    };
  }
  const configPath = join(project.root, CONFIG_FILE);
  const choice = await choosePrograms(runtime, project.root, { stateDir: project.stateDir, configured: project.settings.typescriptProjects });
  const typescriptPrograms = choice.noTsconfig
    ? ["none: no tsconfig.json; TS/JS files are checked in an inferred program (the editors' defaults)"]
    : describePrograms(project.root, choice);
  const linterNotes = [
    ...(enabled.eslint === true && (await eslintLegacy(runtime, project.root))
      ? [
          "eslint runs the legacy .eslintrc* config (ESLint 7 or 8 natively, 9 with ESLINT_USE_FLAT_CONFIG=false; 10 reads none)",
          ...(await projectDirsNote(runtime, project)),
        ]
      : enabled.eslint === true
        ? await configLookupNote(runtime, project, engines.eslint.resolved?.version)
        : []),
    ...(await unsupportedLinters(runtime, project.root)).map(
      ({ name }) => `${name}: the project uses it; Signalint cannot run it (checks say so in notChecked)`,
    ),
    ...(enabled.eslint === true ? await eslintScopeNote(runtime, project.root) : []),
    ...(enabled.oxlint === true ? await oxlintScopeNote(runtime, project.root) : []),
  ];
  return {
    projectRoot: project.root,
    stateDir: project.stateDir,
    legacyStateDir: (await runtime.lstat(join(project.root, ".signalint"))) ? join(project.root, ".signalint") : null,
    cacheDir: project.cacheDir,
    configFile: (await runtime.stat(configPath))?.isFile ? configPath : null,
    configErrors: [...new Set(configErrors)],
    payloadMode: project.settings.payloadMode,
    compact: project.settings.compact,
    oxlintTypeAware: project.settings.oxlintTypeAware,
    runtime: `${runtime.name}${runtime.isStandalone ? " (standalone binary)" : ""}`,
    node: service.node ? [service.node.command, ...service.node.args].join(" ") : null,
    engines,
    typescriptPrograms,
    linterNotes,
    problems: await engineProblems({ runtime, root: project.root, node: service.node, engines, explicit: project.settings.engines, choice }),
  };
}

/** Human-readable doctor output. */
export function formatDoctor(report: DoctorReport): string {
  const lines = [
    `project root   ${report.projectRoot}`,
    `config         ${report.configFile ?? "(none: defaults)"}`,
    ...report.configErrors.map((message) => `  INVALID: ${message} (defaults shown below)`),
    `state dir      ${report.stateDir}`,
    ...(report.legacyStateDir ? [`  ${report.legacyStateDir} is never read (state lives in the per-user state directory above); it can be deleted`] : []),
    `cache dir      ${report.cacheDir}`,
    `payload mode   ${report.payloadMode}${report.compact ? " (compact keys)" : ""}`,
    `runtime        ${report.runtime}; node for JS engines: ${report.node ?? "none found"}`,
    ...(report.daemon ? [daemonLine(report.daemon)] : []),
    "engines:",
  ];
  for (const [engine, entry] of Object.entries(report.engines)) {
    // On but not installed: a check reports it `disabled` (or an error where the project needs it), never as run.
    const state = entry.enabled !== true ? `off (${entry.enabled})` : entry.resolved ? "on" : "on, not installed";
    const where = entry.resolved ? `${entry.resolved.version ?? "version unknown"} via ${entry.resolved.source}: ${entry.resolved.path}` : entry.hint;
    lines.push(`  ${engine.padEnd(7)} ${state}; ${where}`);
    const typeAware = entry.resolved?.typeAware;
    const switched = report.oxlintTypeAware ? "on" : "off (oxlintTypeAware: false)";
    if (typeAware) lines.push(`          --type-aware ${switched}; oxlint-tsgolint ${typeAware.version ?? "version unknown"}: ${typeAware.path}`);
  }
  lines.push("typescript programs:", ...report.typescriptPrograms.map((program) => `  ${program}`));
  if (report.linterNotes.length) lines.push("linters:", ...report.linterNotes.map((note) => `  ${note}`));
  if (report.problems.length) lines.push("cannot run (checks are incomplete until fixed):", ...report.problems.map((problem) => `  ${problem}`));
  return `${lines.join("\n")}\n`;
}

/** The directories with a legacy config of their own that ESLint is also given (no script runs eslint), else nothing. */
async function projectDirsNote(runtime: Runtime, project: { root: string; stateDir: string }): Promise<string[]> {
  const dirs = await eslintProjectDirs({ runtime, root: project.root, stateDir: project.stateDir });
  if (!dirs.length) return [];
  const names = dirs.map((dir) => dir.replace(/\/$/, ""));
  const shown = names.slice(0, 5).join(", ") + (names.length > 5 ? ` and ${names.length - 5} more` : "");
  return [`eslint also lints ${shown} from their own .eslintrc*: no script runs eslint, and a workspace (Nx) lints each project so`];
}

/** ESLint 9 told to take each file's flat config from its directory up (packages with their own), else nothing. */
async function configLookupNote(runtime: Runtime, project: { root: string; stateDir: string }, version: string | null | undefined): Promise<string[]> {
  const flag = eslintConfigLookupFlag(version);
  if (!flag || !(await projectFlatConfigs({ runtime, root: project.root, stateDir: project.stateDir }))) return [];
  return [`eslint runs with --flag ${flag}: a directory with its own eslint.config.* lints its files with it, as its own eslint . does`];
}

/** How oxlint runs when the project's lint scripts run it (one line a script followed, and what was not), else nothing. */
async function oxlintScopeNote(runtime: Runtime, root: string): Promise<string[]> {
  const scope = await oxlintScope(runtime, root);
  const runs = (scope.runs ?? []).map((run) => {
    const from = relative(root, run.dir).replace(/\\/g, "/") || ".";
    const flags = [...run.args, ...(run.typeAware ? ["--type-aware"] : [])].join(" ");
    return `oxlint runs as script ${run.script}: from ${from} on ${run.paths.join(", ") || "nothing"}${flags ? ` with ${flags}` : ""}`;
  });
  return [...runs, ...scope.notices];
}

/** Where ESLint runs when the project's lint scripts name paths (one line), else nothing. */
async function eslintScopeNote(runtime: Runtime, root: string): Promise<string[]> {
  const scope = await eslintScope(runtime, root);
  if (scope === null) return [];
  const ext = scope.ext.length ? ` with --ext ${scope.ext.join(",")}` : "";
  // A workspace's scripts name dozens of paths (trpc/trpc: 29): the first few and a count.
  const shown = scope.paths.slice(0, 5).join(", ") + (scope.paths.length > 5 ? ` and ${scope.paths.length - 5} more` : "");
  return [`eslint runs on ${shown || "nothing"}${ext}: the paths the project's lint scripts give it (other files are a notChecked note)`];
}
