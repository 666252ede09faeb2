import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { parseJsonc } from "../core/jsonc.ts";
import type { Runtime } from "../runtime/types.ts";
import { tscBuildArgs, tscProjectArgs } from "./tsc.ts";
import { TSC_OVERLAY_LAUNCHER } from "./tsc-overlay.ts";

/** One tsc invocation: its argv and the project-relative config file it checks. */
export interface TscRun {
  args: string[];
  configFile: string;
  /** True for `tsc -b` (project references). */
  buildMode: boolean;
  /** A script run (like the compiler's entry, through node) instead of the compiler's entry: the output overlay. */
  entry?: string;
  /** Configs outside the root extended by the run's configs → the in-root config that extends them. */
  leadsTo: Map<string, string>;
}

interface ConfigInfo {
  path: string;
  references: string[];
  isSolution: boolean;
}

async function readConfig(runtime: Runtime, path: string): Promise<ConfigInfo | null> {
  let raw: unknown;
  try {
    raw = parseJsonc(await runtime.readText(path));
  } catch {
    // tsc itself reports an unreadable or malformed config; let it.
    return { path, references: [], isSolution: false };
  }
  if (typeof raw !== "object" || raw === null) return { path, references: [], isSolution: false };
  const config = raw as { references?: { path?: unknown }[]; files?: unknown; include?: unknown };
  const references: string[] = [];
  for (const reference of Array.isArray(config.references) ? config.references : []) {
    if (typeof reference?.path !== "string") continue;
    const target = resolve(dirname(path), reference.path);
    const info = await runtime.stat(target);
    references.push(info?.isDirectory ? join(target, "tsconfig.json") : target);
  }
  const isSolution = Array.isArray(config.files) && config.files.length === 0 && config.include === undefined;
  return { path, references, isSolution };
}

/** The nearest tsconfig.json at or above `start`, never above `root`. */
export async function nearestTsconfig(runtime: Runtime, root: string, start: string): Promise<string | null> {
  let dir = start;
  for (;;) {
    const candidate = join(dir, "tsconfig.json");
    if ((await runtime.stat(candidate))?.isFile) return candidate;
    if (resolve(dir) === resolve(root)) return null;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

async function collectGraph(runtime: Runtime, start: ConfigInfo): Promise<ConfigInfo[]> {
  const seen = new Map<string, ConfigInfo>([[start.path, start]]);
  const queue = [...start.references];
  while (queue.length) {
    const next = queue.shift() as string;
    if (seen.has(next)) continue;
    const info = await readConfig(runtime, next);
    if (!info) continue;
    seen.set(next, info);
    queue.push(...info.references);
  }
  return [...seen.values()];
}

/** Write a file of Signalint's own (a launcher in the cache directory) unless it already holds this text. */
export async function writeIfChanged(runtime: Runtime, path: string, text: string): Promise<void> {
  // No readable launcher yet: it is written.
  const current = await runtime.readText(path).catch(() => null);
  if (current !== text) await runtime.writeFileAtomic(path, text);
}

/** Compiler options that write files of their own wherever the config says (a trace directory, a CPU profile). */
const PROFILE_OPTIONS = ["generateTrace", "generateCpuProfile"] as const;

type RawConfig = { extends?: unknown; compilerOptions?: Record<string, unknown> } | null;

/**
 * A config and the configs it extends by relative path, in the order tsc reads them (at most 16; an unreadable or
 * malformed one ends its branch: tsc reports it). Package specifiers are not followed.
 */
async function extendsChain(runtime: Runtime, tsconfig: string): Promise<{ path: string; raw: RawConfig }[]> {
  const chain: { path: string; raw: RawConfig }[] = [];
  const queue = [tsconfig];
  while (queue.length && chain.length < 16) {
    const path = queue.shift() as string;
    if (chain.some((entry) => entry.path === path)) continue;
    let raw: RawConfig;
    try {
      raw = parseJsonc(await runtime.readText(path)) as RawConfig;
    } catch {
      // Missing or malformed config: the chain ends here (tsc reports it when it runs).
      raw = null;
    }
    chain.push({ path, raw });
    const extended = typeof raw?.extends === "string" ? [raw.extends] : Array.isArray(raw?.extends) ? raw.extends : [];
    for (const target of extended) {
      if (typeof target !== "string" || !/^\.{1,2}[\\/]/.test(target)) continue;
      const file = resolve(dirname(path), target);
      queue.push(/\.json$/.test(file) ? file : `${file}.json`);
    }
  }
  return chain;
}

/**
 * Whether the program may write build info: a config of the chain sets `incremental` or `composite`, or extends a
 * package's config, which extendsChain does not follow (then it may, and the build info is moved all the same).
 */
function writesBuildInfo(chain: readonly { raw: RawConfig }[]): boolean {
  return chain.some(({ raw }) => {
    const options = raw?.compilerOptions ?? {};
    const bases = typeof raw?.extends === "string" ? [raw.extends] : Array.isArray(raw?.extends) ? raw.extends : [];
    return (
      raw === null ||
      options.incremental === true ||
      options.composite === true ||
      bases.some((base) => typeof base !== "string" || !/^\.{1,2}[\\/]/.test(base))
    );
  });
}

/**
 * `--generateTrace`/`--generateCpuProfile` into the work directory when the config or a config it extends sets them
 * (they would write into the tree; passing them otherwise would make every run trace).
 */
function profileRedirects(chain: readonly { raw: RawConfig }[], workDir: string): string[] {
  const set = (option: string) => chain.some(({ raw }) => raw?.compilerOptions && raw.compilerOptions[option] != null);
  return PROFILE_OPTIONS.filter(set).flatMap((option) => [`--${option}`, join(workDir, option === "generateTrace" ? "trace" : "profile.cpuprofile")]);
}

/**
 * For each config outside the root that a config of the run extends, the in-root config that leads to it: a
 * diagnostic located there (an unknown option in a shared base) is reported on that config.
 */
async function outsideLeads(runtime: Runtime, root: string, configs: readonly string[]): Promise<Map<string, string>> {
  const leads = new Map<string, string>();
  const inside = (path: string) => !relative(root, path).startsWith("..") && !isAbsolute(relative(root, path));
  for (const config of configs) {
    for (const { path } of await extendsChain(runtime, config)) if (!inside(path) && !leads.has(path)) leads.set(path, config);
  }
  return leads;
}

/** The overlay launcher (tsc-overlay.ts) in the cache directory, named by its content. */
async function overlayLauncher(runtime: Runtime, cacheDir: string): Promise<string> {
  const path = join(cacheDir, "tsc", `overlay-${runtime.sha256(TSC_OVERLAY_LAUNCHER).slice(0, 12)}.cjs`);
  await writeIfChanged(runtime, path, TSC_OVERLAY_LAUNCHER);
  return path;
}

/** Options for planning one tsc run. */
export interface PlanOptions {
  root: string;
  tsconfig: string;
  cacheDir: string;
  /**
   * The compiler module (lib/typescript.js) of a TypeScript 5.x/6.x run through node: build mode then runs the user's
   * own `tsc -b <tsconfig>` through the output overlay. null: generated configs (TypeScript 7, no node).
   */
  overlayCompiler?: string | null;
  /** A type-checker other than tsc (vue-tsc): its run is `-p` whatever the config references, its build info apart. */
  checker?: string;
}

/** How a tsconfig under `root` is named in issues (project-relative, forward slashes). */
export function configFileName(root: string, tsconfig: string): string {
  return tsconfig.slice(root.length + 1).replace(/\\/g, "/");
}

/**
 * Plan the tsc run for one tsconfig; nothing it runs writes inside the project tree. A plain config is `tsc --noEmit
 * -p <the user's tsconfig>` with build info moved to the cache directory. A config with project references is the
 * user's own `tsc -b <tsconfig>` through the output overlay (TypeScript 5.x/6.x: every output path lives in the cache
 * directory), else `tsc -b` over generated configs in the cache directory that extend the user's and redirect every
 * output there (TypeScript 7, whose compiler cannot be given another file system; configs that resolve `types` or
 * default `rootDir` from their own directory can differ there).
 */
export async function planTscRun(runtime: Runtime, options: PlanOptions): Promise<TscRun> {
  const configFile = configFileName(options.root, options.tsconfig);
  const top = await readConfig(runtime, options.tsconfig);
  const workDir = tscWorkDir(runtime, options.cacheDir, options.tsconfig);
  await runtime.mkdirp(workDir);
  const chain = await extendsChain(runtime, options.tsconfig);
  const profiles = profileRedirects(chain, workDir);
  if (!top || top.references.length === 0 || options.checker) {
    const leadsTo = await outsideLeads(runtime, options.root, [options.tsconfig]);
    // TypeScript 5.4 (not 5.9 or 6.0) refuses --tsBuildInfoFile without incremental or composite (TS5069, found on
    // openapi-typescript's vue-3 example under TypeScript 5.4): given only when a config might set either.
    const buildInfo = writesBuildInfo(chain) ? join(workDir, `${options.checker ?? "project"}.tsbuildinfo`) : undefined;
    // vue-tsc on its last build info drops errors a cold run reports (Volar overwrites a component's generated code
    // before TypeScript's builder checks it again: an unused first import's TS6133 is lost after an edit): each run is cold.
    if (buildInfo && options.checker === "vue-tsc") await runtime.removeFile(buildInfo);
    return { args: tscProjectArgs(options.tsconfig, buildInfo, profiles), configFile, buildMode: false, leadsTo };
  }
  const graph = await collectGraph(runtime, top);
  const leadsTo = await outsideLeads(
    runtime,
    options.root,
    graph.map((info) => info.path),
  );
  if (options.overlayCompiler) {
    const entry = await overlayLauncher(runtime, options.cacheDir);
    const args = [options.overlayCompiler, join(workDir, "overlay"), options.tsconfig, ...tscBuildArgs(options.tsconfig, profiles)];
    return { args, configFile, buildMode: true, entry, leadsTo };
  }
  return { args: tscBuildArgs(await writeGenerated(runtime, graph, workDir), profiles), configFile, buildMode: true, leadsTo };
}

/** Where a command-line run of `tsconfig` keeps its build info, generated configs and outputs (in the cache directory). */
export function tscWorkDir(runtime: Runtime, cacheDir: string, tsconfig: string): string {
  return join(cacheDir, "tsc", runtime.sha256(tsconfig).slice(0, 12));
}

/** Generated configs for `tsc -b` (one per project of the graph, extending the user's) and their solution; its path. */
async function writeGenerated(runtime: Runtime, graph: readonly ConfigInfo[], workDir: string): Promise<string> {
  const names = new Map(graph.map((info, index) => [info.path, join(workDir, `p${index}.json`)]));
  const projects: string[] = [];
  for (const [index, info] of graph.entries()) {
    if (info.isSolution) continue;
    const out = join(workDir, "out", String(index));
    const generated = {
      extends: info.path,
      compilerOptions: {
        noEmit: false,
        emitDeclarationOnly: true,
        declaration: true,
        declarationMap: false,
        sourceMap: false,
        outDir: out,
        declarationDir: out,
        tsBuildInfoFile: join(workDir, `p${index}.tsbuildinfo`),
      },
      references: info.references.filter((ref) => names.has(ref)).map((ref) => ({ path: names.get(ref) })),
    };
    await writeIfChanged(runtime, names.get(info.path) as string, `${JSON.stringify(generated, null, 2)}\n`);
    projects.push(names.get(info.path) as string);
  }
  const solution = join(workDir, "solution.json");
  await writeIfChanged(runtime, solution, `${JSON.stringify({ files: [], references: projects.map((path) => ({ path })) }, null, 2)}\n`);
  return solution;
}
