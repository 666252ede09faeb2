import { dirname, join, relative, resolve } from "node:path";
import { parseJsonc } from "../../core/jsonc.ts";
import { ifMissing } from "../../core/errors.ts";
import { tscInvocations, type TypeChecker, vitestTypecheckConfig, vitestTypechecks } from "../../engines/tsc-scripts.ts";
import { nearestTsconfig } from "../../engines/tsconfig.ts";
import type { Runtime } from "../../runtime/types.ts";
import { readManifest, selectPackages, whenAbsent, workspacePackages, type Manifest } from "../project/workspace.ts";

/** A tsconfig the project checks, why it was chosen, and the type-checker its script runs it with. */
export interface ChosenProgram {
  /** Absolute path of the tsconfig. */
  config: string;
  /** Why, in words: "root tsconfig.json", "script typecheck of packages/a", "typescript.projects", … */
  reasons: string[];
  tool: TypeChecker;
}

/** The programs a project checks and the configs they reach through references (for doctor and engines.tsc). */
export interface ProgramChoice {
  programs: ChosenProgram[];
  /** Configs reached through references of a chosen program, each with the program that reaches it. */
  reached: { config: string; from: string }[];
  /** Configs the project has but does not check, each with why (a workspace's root tsconfig.json no script runs). */
  leftOut: { config: string; reason: string }[];
  /** True when the project has no tsconfig.json at all (then the editors' inferred program stays). */
  noTsconfig: boolean;
}

/** Directories never searched for nested tsconfigs. */
const SKIPPED_DIRS = new Set(["node_modules", "dist", "build", "out", "coverage"]);

/** The topmost tsconfig.json files below `dir` (at most four levels deep; the search stops where it finds one). */
export async function nestedTsconfigs(runtime: Runtime, dir: string, stateDir: string): Promise<string[]> {
  const found: string[] = [];
  let level = [dir];
  for (let depth = 0; depth < 4 && level.length; depth++) {
    const next: string[] = [];
    for (const current of level) {
      const entries = await whenAbsent(runtime.readDir(current), []);
      if (depth > 0 && entries.some((entry) => entry.isFile && entry.name === "tsconfig.json")) {
        found.push(join(current, "tsconfig.json"));
        continue;
      }
      for (const entry of entries) {
        const child = join(current, entry.name);
        if (entry.isDirectory && !entry.name.startsWith(".") && !SKIPPED_DIRS.has(entry.name) && child !== stateDir) next.push(child);
      }
    }
    level = next;
  }
  return found.sort();
}

/** The configs a config references (a directory reference means its tsconfig.json); unreadable configs reference none. */
async function referencesOf(runtime: Runtime, config: string): Promise<string[]> {
  let raw: { references?: { path?: unknown }[] } | null;
  try {
    raw = parseJsonc(await runtime.readText(config)) as typeof raw;
  } catch {
    // tsc reports an unreadable or malformed config when it runs.
    return [];
  }
  const out: string[] = [];
  for (const reference of Array.isArray(raw?.references) ? raw.references : []) {
    if (typeof reference?.path !== "string") continue;
    const target = resolve(dirname(config), reference.path);
    out.push((await runtime.stat(target))?.isDirectory ? join(target, "tsconfig.json") : target);
  }
  return out;
}

/** The config a script's `-p`/`-b` argument names, relative to the package directory (a directory: its tsconfig.json). */
async function scriptConfig(runtime: Runtime, root: string, dir: string, project: string | null): Promise<string | null> {
  // tsc without -p looks for tsconfig.json from its working directory upward.
  if (project === null) return nearestTsconfig(runtime, root, dir);
  const target = resolve(dir, project);
  const info = await runtime.stat(target);
  if (info?.isDirectory) return (await runtime.stat(join(target, "tsconfig.json")))?.isFile ? join(target, "tsconfig.json") : null;
  return info?.isFile ? target : null;
}

/** Vitest's config files, in the order vitest looks for them (vite.config.* when there is no vitest.config.*). */
const VITEST_CONFIGS = ["vitest", "vite"].flatMap((base) => ["ts", "mts", "cts", "js", "mjs", "cjs"].map((ext) => `${base}.config.${ext}`));

/** What the package's vitest config says of type-checking (see vitestTypecheckConfig); nothing without one. */
async function vitestConfig(runtime: Runtime, dir: string): Promise<{ tsconfig: string | null; enabled: boolean }> {
  for (const name of VITEST_CONFIGS) {
    const text = await runtime.readText(join(dir, name)).catch(ifMissing(null));
    if (text !== null) return vitestTypecheckConfig(text);
  }
  return { tsconfig: null, enabled: false };
}

/**
 * The tsconfigs an Angular workspace's `angular.json` gives its builders (`tsConfig` of each project's targets and
 * their configurations: `ng build` with tsconfig.app.json, `ng test` with tsconfig.spec.json), each with its target.
 */
async function angularConfigs(runtime: Runtime, dir: string): Promise<{ config: string; target: string }[]> {
  const text = await runtime.readText(join(dir, "angular.json")).catch(ifMissing(null));
  if (text === null) return [];
  let workspace: unknown;
  try {
    workspace = parseJsonc(text);
  } catch {
    // ng reports a malformed angular.json itself.
    return [];
  }
  const out: { config: string; target: string }[] = [];
  const record = (value: unknown) => (value && typeof value === "object" ? (value as Record<string, unknown>) : {});
  for (const [name, project] of Object.entries(record(record(workspace).projects))) {
    const targets = record(record(project).architect ?? record(project).targets);
    for (const [target, definition] of Object.entries(targets)) {
      const options = [record(definition).options, ...Object.values(record(record(definition).configurations))];
      for (const tsConfig of options.map((option) => record(option).tsConfig)) {
        const config = typeof tsConfig === "string" ? resolve(dir, tsConfig) : null;
        if (config && !out.some((known) => known.config === config)) out.push({ config, target: `${name}:${target}` });
      }
    }
  }
  return out;
}

/**
 * The package configs Nx's TypeScript plugin type-checks: with `@nx/js/typescript` in nx.json's `plugins` (its
 * `typecheck` option not false), every project with a tsconfig.json has an inferred `typecheck` target (`tsc --build`
 * on that config) that no package.json script names.
 */
async function nxTypecheckConfigs(runtime: Runtime, root: string, packages: readonly string[]): Promise<ScriptConfig[]> {
  const text = await runtime.readText(join(root, "nx.json")).catch(ifMissing(null));
  if (text === null) return [];
  let nx: { plugins?: unknown } | null;
  try {
    nx = parseJsonc(text) as typeof nx;
  } catch {
    // Nx reports a malformed nx.json itself.
    return [];
  }
  const typecheck = (Array.isArray(nx?.plugins) ? nx.plugins : []).some((entry: unknown) => {
    const plugin = typeof entry === "string" ? { plugin: entry } : (entry as { plugin?: unknown; options?: { typecheck?: unknown } } | null);
    return plugin?.plugin === "@nx/js/typescript" && plugin.options?.typecheck !== false;
  });
  if (!typecheck) return [];
  const out: ScriptConfig[] = [];
  for (const dir of packages) {
    const config = join(dir, "tsconfig.json");
    if ((await runtime.stat(config))?.isFile)
      out.push({ config, reason: `nx typecheck (@nx/js/typescript) of ${relative(root, dir).replace(/\\/g, "/")}`, tool: "tsc", inPackage: true });
  }
  return out;
}

/** Why a root tsconfig.json no script runs is left out of a workspace whose packages check themselves. */
export const ROOT_LEFT_OUT = "root tsconfig.json: no script runs it; the packages' scripts check themselves — add it with typescript.projects";

/** Why a root tsconfig.json is left out of an Angular workspace: angular.json names the configs ng checks. */
export const ROOT_LEFT_TO_BUILDERS =
  "root tsconfig.json: angular.json names the configs ng builds and tests, and no script runs it — add it with typescript.projects";

/** A config one script invocation names, with the script that names it. */
interface ScriptConfig {
  config: string;
  reason: string;
  tool: TypeChecker;
  /** True when the script belongs to a workspace package (not the root). */
  inPackage: boolean;
  /** Named by a builder's workspace file (angular.json) rather than a script. */
  builder?: true;
  /** Run in build mode (`vue-tsc --build`): the projects it references are checked too. */
  build?: boolean;
}

/** True when the root's angular.json names programs: then the root tsconfig.json they extend is the editor's. */
const rootBuilders = (scripts: readonly ScriptConfig[]) => scripts.some((script) => script.builder && !script.inPackage);

/** The configs the type-checker invocations of the root's and the packages' scripts name, in order. */
async function scriptConfigs(runtime: Runtime, root: string, manifest: Manifest | null, packages: readonly string[]): Promise<ScriptConfig[]> {
  const out: ScriptConfig[] = [];
  for (const dir of [root, ...packages]) {
    const pkg = dir === root ? manifest : await readManifest(runtime, dir);
    const where = relative(root, dir).replace(/\\/g, "/");
    let vitest: { tsconfig: string | null; enabled: boolean } | undefined;
    for (const [name, script] of Object.entries(pkg?.scripts ?? {})) {
      const reason = `script "${name}"${where ? ` of ${where}` : ""}`;
      for (const invocation of tscInvocations(script)) {
        // `pnpm -r exec tsc` at the root runs in each package it selects, as that package's own script would.
        const where = invocation.packages && dir === root ? await selectPackages(runtime, root, packages, invocation.packages.filters) : [dir];
        for (const at of where) {
          const runReason = at === dir ? reason : `${reason} in ${relative(root, at).replace(/\\/g, "/")}`;
          for (const project of invocation.projects.length ? invocation.projects : [null]) {
            const config = await scriptConfig(runtime, root, at, project);
            if (config) out.push({ config, reason: runReason, tool: invocation.tool, inPackage: at !== root, build: invocation.build });
          }
        }
      }
      if (!/\bvitest\b/.test(script)) continue;
      vitest ??= await vitestConfig(runtime, dir);
      for (const run of vitestTypechecks(script, vitest.enabled)) {
        const config = await scriptConfig(runtime, root, dir, run.tsconfig ?? vitest.tsconfig);
        if (config) out.push({ config, reason: `${reason} (vitest's type-check)`, tool: "tsc", inPackage: dir !== root });
      }
    }
    for (const { config, target } of await angularConfigs(runtime, dir)) {
      if ((await runtime.stat(config))?.isFile)
        out.push({ config, reason: `angular.json ${target}${where ? ` of ${where}` : ""}`, tool: "tsc", inPackage: dir !== root, builder: true });
    }
  }
  return out;
}

/**
 * Whether the root tsconfig.json is a program the project checks. In a workspace whose packages' scripts type-check
 * their own configs, a root config without references that no script runs and `typescript.projects` does not name is
 * an editor's config (trpc/trpc: 1,232 errors from `tsc -p tsconfig.json`, 0 from the project's checks): left out.
 */
async function keepsRoot(
  runtime: Runtime,
  rootConfig: string,
  input: { packages: readonly string[]; scripts: readonly ScriptConfig[]; configured: readonly string[] },
): Promise<boolean> {
  if (input.configured.includes(rootConfig) || input.scripts.some((script) => script.config === rootConfig)) return true;
  // angular.json names what `ng build` and `ng test` check; the root config they extend is the editor's.
  if (rootBuilders(input.scripts)) return (await referencesOf(runtime, rootConfig)).length > 0;
  if (input.packages.length === 0) return true;
  // No package checks itself: the root config is the only evidence of what the project type-checks.
  if (!input.scripts.some((script) => script.inPackage)) return true;
  return (await referencesOf(runtime, rootConfig)).length > 0;
}

/**
 * Choose the programs the way the project checks itself: the root tsconfig.json (with what it references; in a
 * workspace, only when something runs it — see keepsRoot), the configs `tsc`/`tsgo`/`vue-tsc` invocations in the
 * root's and workspace packages' scripts name, and `typescript.projects`; without a root config, each workspace
 * package's tsconfig.json (a project that is not a workspace: the topmost tsconfig.json files below the root).
 */
export async function choosePrograms(runtime: Runtime, root: string, options: { stateDir: string; configured: readonly string[] }): Promise<ProgramChoice> {
  const chosen = new Map<string, ChosenProgram>();
  // The configs whose checker a script named (the others are checked with tsc by default).
  const named = new Set<string>();
  const add = (config: string, reason: string, tool?: TypeChecker) => {
    const known = chosen.get(config);
    if (!known) chosen.set(config, { config, reasons: [reason], tool: tool ?? "tsc" });
    else {
      if (!known.reasons.includes(reason)) known.reasons.push(reason);
      // vue-tsc and svelte-check check everything tsc does and the .vue / .svelte files too; a script's checker
      // (tsgo) replaces the default of a config chosen for another reason (the root's tsconfig.json).
      if (tool === "vue-tsc" || tool === "svelte-check" || (tool && !named.has(config))) known.tool = tool;
    }
    if (tool) named.add(config);
  };
  const rootConfig = join(root, "tsconfig.json");
  const manifest = await readManifest(runtime, root);
  const packages = await workspacePackages(runtime, root, manifest);
  const scripts = [...(await scriptConfigs(runtime, root, manifest, packages)), ...(await nxTypecheckConfigs(runtime, root, packages))];
  const configured: string[] = [];
  for (const project of options.configured) {
    const config = await scriptConfig(runtime, root, root, project);
    if (config) configured.push(config);
  }
  const hasRoot = (await runtime.stat(rootConfig))?.isFile === true;
  const rootKept = hasRoot && (await keepsRoot(runtime, rootConfig, { packages, scripts, configured }));
  if (rootKept) add(rootConfig, "root tsconfig.json");
  const packageConfigs: string[] = [];
  for (const dir of packages) if ((await runtime.stat(join(dir, "tsconfig.json")))?.isFile) packageConfigs.push(join(dir, "tsconfig.json"));
  // A package's tsconfig.json is a program when a script runs a type-checker over it; only when no script runs one
  // anywhere is each package's config the evidence of what the project checks (as the root's is in keepsRoot).
  if (!rootKept && scripts.length === 0)
    for (const config of packageConfigs) add(config, `workspace package ${relative(root, dirname(config)).replace(/\\/g, "/")}`);
  for (const script of scripts) add(script.config, script.reason, script.tool);
  for (const script of scripts)
    for (const leaf of await checkerBuildLeaves(runtime, script))
      add(leaf, `referenced by ${relative(root, script.config).replace(/\\/g, "/")} (${script.tool} --build)`, script.tool);
  for (const config of configured) add(config, "typescript.projects");
  const nested = hasRoot ? [] : await nestedTsconfigs(runtime, root, options.stateDir);
  if (!hasRoot && packages.length === 0) for (const config of nested) add(config, "topmost tsconfig.json (no root tsconfig.json)");
  const programs = [...chosen.values()].sort((a, b) => (a.config < b.config ? -1 : a.config > b.config ? 1 : 0));
  const reached = await reachedConfigs(runtime, programs);
  const leftOut = hasRoot && !chosen.has(rootConfig) ? [{ config: rootConfig, reason: rootBuilders(scripts) ? ROOT_LEFT_TO_BUILDERS : ROOT_LEFT_OUT }] : [];
  const reachedSet = new Set(reached.map(({ config }) => config));
  for (const config of packageConfigs) if (!chosen.has(config) && !reachedSet.has(config)) leftOut.push({ config, reason: PACKAGE_LEFT_OUT });
  return { programs, reached, leftOut, noTsconfig: !hasRoot && chosen.size === 0 && nested.length === 0 };
}

/** Why a workspace package's tsconfig.json is not a program: nothing the project runs type-checks it (a docs package's). */
export const PACKAGE_LEFT_OUT = "no script runs a type-checker over it and no checked config references it — add it with typescript.projects";

/**
 * The projects a `vue-tsc --build` (or another checker's build) checks besides its config: Signalint runs a checker
 * with `-p` (engines/tsconfig.ts), which checks a solution's own files only (Vue's template `tsconfig.json` has none:
 * `files: []`, references to tsconfig.app.json and tsconfig.node.json — openapi-typescript's vue-3 example answered
 * nothing where its `vue-tsc --build --force` said 2 × TS2307). Each referenced config without references of its own
 * is run with the same checker; one that references others would need their built outputs, and is left to the solution.
 */
async function checkerBuildLeaves(runtime: Runtime, script: ScriptConfig): Promise<string[]> {
  if (script.tool === "tsc" || script.tool === "tsgo" || !script.build) return [];
  const leaves: string[] = [];
  for (const reference of await referencesOf(runtime, script.config))
    if ((await runtime.stat(reference))?.isFile && (await referencesOf(runtime, reference)).length === 0) leaves.push(reference);
  return leaves;
}

/** Every config the programs reach through references (transitively), with the program that reaches it. */
async function reachedConfigs(runtime: Runtime, programs: readonly ChosenProgram[]): Promise<{ config: string; from: string }[]> {
  const seen = new Map<string, string>();
  for (const program of programs) {
    const queue = await referencesOf(runtime, program.config);
    while (queue.length) {
      const next = queue.shift() as string;
      if (seen.has(next) || next === program.config) continue;
      seen.set(next, program.config);
      queue.push(...(await referencesOf(runtime, next)));
    }
  }
  // A chosen program is listed once, with its own reasons (its run is dropped when another reaches it).
  const chosen = new Set(programs.map((program) => program.config));
  return [...seen].filter(([config]) => !chosen.has(config)).map(([config, from]) => ({ config, from }));
}

/** One line per program for doctor and engines.tsc: `tsconfig.json (root tsconfig.json)`. */
export function describePrograms(root: string, choice: ProgramChoice): string[] {
  const name = (config: string) => relative(root, config).replace(/\\/g, "/");
  return [
    ...choice.programs.map((program) => `${name(program.config)}${program.tool === "tsc" ? "" : ` with ${program.tool}`} (${program.reasons.join("; ")})`),
    ...choice.reached.map(({ config, from }) => `${name(config)} (referenced by ${name(from)})`),
    ...choice.leftOut.map(({ config, reason }) => `${name(config)} not checked (${reason})`),
  ];
}
