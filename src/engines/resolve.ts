import { dirname, join, resolve } from "node:path";
import type { EngineName } from "../core/contracts.ts";
import type { Runtime } from "../runtime/types.ts";
import type { NodeCommand, ResolvedEngine } from "./types.ts";

/** npm package and executable name of each engine. */
export const ENGINE_PACKAGES: Record<EngineName, { pkg: string; bin: string }> = {
  oxlint: { pkg: "oxlint", bin: "oxlint" },
  tsc: { pkg: "typescript", bin: "tsc" },
  biome: { pkg: "@biomejs/biome", bin: "biome" },
  eslint: { pkg: "eslint", bin: "eslint" },
};

/** How to install a missing engine. */
export function installHint(engine: EngineName): string {
  const { pkg, bin } = ENGINE_PACKAGES[engine];
  return `${bin} not found in the project's node_modules or on PATH; install it with \`npm i -D ${pkg}\``;
}

async function isJsEntry(runtime: Runtime, path: string): Promise<boolean> {
  if (/\.(c|m)?js$/.test(path)) return true;
  if (/\.(cmd|exe|bat|ps1)$/i.test(path)) return false;
  const head = await runtime.readText(path).then((text) => text.slice(0, 200), () => "");
  return /^#!.*\bnode\b/.test(head);
}

/** The argument that makes a standalone Signalint binary run a JS file on its embedded Node runtime. */
export const EMBEDDED_NODE_FLAG = "__signalint-node";

/**
 * How JS engine entries run: the current node; inside a standalone binary, a node on PATH if there is one, else the
 * binary itself (EMBEDDED_NODE_FLAG); under Deno, a node on PATH.
 */
export async function findNodeCommand(runtime: Runtime): Promise<NodeCommand | null> {
  if (runtime.name === "node" && !runtime.isStandalone) return { command: runtime.execPath, args: [] };
  const onPath = await findOnPath(runtime, "node");
  if (onPath) return { command: onPath, args: [] };
  return runtime.isStandalone ? { command: runtime.execPath, args: [EMBEDDED_NODE_FLAG] } : null;
}

/** The first executable called `name` on PATH (with PATHEXT on Windows). */
export async function findOnPath(runtime: Runtime, name: string): Promise<string | null> {
  const windows = runtime.platform === "win32";
  const dirs = (runtime.env("PATH") ?? runtime.env("Path") ?? "").split(windows ? ";" : ":").filter(Boolean);
  const extensions = windows ? ["", ...(runtime.env("PATHEXT") ?? ".EXE;.CMD;.BAT").split(";").map((ext) => ext.toLowerCase())] : [""];
  for (const dir of dirs) {
    for (const ext of extensions) {
      const candidate = join(dir, name + ext);
      if ((await runtime.stat(candidate))?.isFile) return candidate;
    }
  }
  return null;
}

/** The engine package an entry belongs to (its directory and version), looked for in the entry's ancestors. */
async function owningPackage(runtime: Runtime, entry: string, pkg: string): Promise<{ version: string; packageDir: string } | null> {
  let dir = dirname(entry);
  for (let depth = 0; depth < 6; depth++) {
    const manifest = await runtime.readText(join(dir, "package.json")).then((text) => JSON.parse(text) as { name?: string; version?: string }, () => null);
    if (manifest?.name === pkg && typeof manifest.version === "string") return { version: manifest.version, packageDir: dir };
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

async function fromBinDir(runtime: Runtime, root: string, start: string, bin: string): Promise<string | null> {
  let dir = start;
  for (;;) {
    for (const name of runtime.platform === "win32" ? [`${bin}.cmd`, `${bin}.exe`, bin] : [bin]) {
      const candidate = join(dir, "node_modules", ".bin", name);
      if ((await runtime.stat(candidate))?.isFile) return candidate;
    }
    if (resolve(dir) === resolve(root)) return null;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

async function fromPackageBin(runtime: Runtime, root: string, pkg: string, bin: string): Promise<string | null> {
  // Node's own lookup: node_modules/<pkg> in the root and each parent.
  let dir = root;
  for (;;) {
    const pkgDir = join(dir, "node_modules", pkg);
    const manifest = await runtime.readText(join(pkgDir, "package.json")).then((text) => JSON.parse(text) as { bin?: unknown }, () => null);
    if (manifest) {
      const binField = manifest.bin;
      const relative = typeof binField === "string" ? binField : typeof binField === "object" && binField ? (binField as Record<string, string>)[bin] : undefined;
      if (relative) return join(pkgDir, relative);
    }
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** Options for resolving one engine. */
export interface ResolveOptions {
  /** Project root; the node_modules/.bin walk never goes above it. */
  root: string;
  /** Where the walk starts (a checked directory inside the root); defaults to the root. */
  start?: string;
  /** How to run a JS entry (a node executable, or the standalone binary's embedded runtime); null: none. */
  node: NodeCommand | null;
}

/**
 * Find an engine: the project's node_modules/.bin (walking up from `start` to the root), then the engine package's
 * declared bin, then PATH. JS entries are run through node so that no shebang or PATH lookup is needed.
 */
export async function resolveEngine(runtime: Runtime, engine: EngineName, options: ResolveOptions): Promise<ResolvedEngine | null> {
  const { pkg, bin } = ENGINE_PACKAGES[engine];
  const candidates: [ResolvedEngine["source"], () => Promise<string | null>][] = [
    ["node_modules/.bin", () => fromBinDir(runtime, options.root, options.start ?? options.root, bin)],
    // Like Node's own lookup, follow the root's real location too (a symlinked project finds its real parents).
    ["package bin", async () => (await fromPackageBin(runtime, options.root, pkg, bin)) ?? fromPackageBin(runtime, (await runtime.realPath(options.root)) ?? options.root, pkg, bin)],
    ["PATH", () => findOnPath(runtime, bin)],
  ];
  for (const [source, find] of candidates) {
    const found = await find();
    if (!found) continue;
    const path = (await runtime.realPath(found)) ?? found;
    const js = await isJsEntry(runtime, path);
    if (js && !options.node) continue;
    return {
      engine,
      command: js && options.node ? options.node.command : found,
      prefixArgs: js && options.node ? [...options.node.args, path] : [],
      path,
      ...((await owningPackage(runtime, path, pkg)) ?? { version: null, packageDir: null }),
      source,
    };
  }
  return null;
}
