import { dirname, join, resolve } from "node:path";
import { parseJsonc } from "../core/jsonc.ts";
import type { Runtime } from "../runtime/types.ts";
import { tscBuildArgs, tscProjectArgs } from "./tsc.ts";

/** One tsc invocation: its argv and the project-relative config file it checks. */
export interface TscRun {
  args: string[];
  configFile: string;
  /** True for `tsc -b` over generated configs (project references). */
  buildMode: boolean;
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

async function writeIfChanged(runtime: Runtime, path: string, text: string): Promise<void> {
  const current = await runtime.readText(path).catch(() => null);
  if (current !== text) await runtime.writeFileAtomic(path, text);
}

/**
 * Plan the tsc run for one tsconfig. A config with project references is checked in build mode through generated
 * configs in the project's cache directory (outside the project tree, so no engine or user tool sees them) that
 * extend the user's and redirect every output (declarations and build info) there, so the user's tree is never
 * written to and references resolve exactly as `tsc -b` resolves them.
 */
export async function planTscRun(runtime: Runtime, options: { root: string; tsconfig: string; cacheDir: string }): Promise<TscRun> {
  const configFile = options.tsconfig.slice(options.root.length + 1).replace(/\\/g, "/");
  const top = await readConfig(runtime, options.tsconfig);
  const workDir = join(options.cacheDir, "tsc", runtime.sha256(options.tsconfig).slice(0, 12));
  await runtime.mkdirp(workDir);
  if (!top || top.references.length === 0) {
    // A plain cold run: --incremental would make this run slower (it computes every file's declaration signature)
    // and the warm program serves the runs after it.
    return { args: tscProjectArgs(options.tsconfig), configFile, buildMode: false };
  }
  const graph = await collectGraph(runtime, top);
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
  return { args: tscBuildArgs(solution), configFile, buildMode: true };
}
