import { basename, dirname, join, resolve } from "node:path";
import type { EngineName } from "../core/contracts.ts";
import type { Runtime } from "../runtime/types.ts";
import { ENGINES } from "./registry.ts";
import type { NodeCommand, ResolvedEngine } from "./types.ts";

/** How a project adds a dev dependency, by the lockfile at its root (npm without one). */
const ADD_DEV: [lockfile: string, command: string][] = [
  ["bun.lock", "bun add -d"],
  ["bun.lockb", "bun add -d"],
  ["pnpm-lock.yaml", "pnpm add -D"],
  ["yarn.lock", "yarn add -D"],
];

/** The command that adds a dev dependency to the project at `root`: `bun add -d`, `pnpm add -D`, `yarn add -D`, `npm i -D`. */
export async function addDevCommand(runtime: Runtime, root: string): Promise<string> {
  for (const [lockfile, command] of ADD_DEV) if ((await runtime.stat(join(root, lockfile)))?.isFile) return command;
  return "npm i -D";
}

/**
 * How to install a missing engine, with the project's own package manager (`add`: see addDevCommand). `pnp`: the Yarn
 * Plug'n'Play manifest that governs the project (see yarnPnp): its packages are in zip archives no process can load
 * without Yarn's runtime, so the way out is Yarn's node_modules layout.
 */
export function installHint(engine: EngineName, pnp: string | null = null, add = "npm i -D"): string {
  const { pkg, bin } = ENGINES[engine];
  if (pnp)
    return `${bin} not found in a node_modules: the project installs with Yarn Plug'n'Play (${basename(pnp)}), whose packages Signalint cannot load; set \`nodeLinker: node-modules\` in .yarnrc.yml and run \`yarn install\` (with \`${pkg}\` among the devDependencies)`;
  return `${bin} not found in the project's node_modules or on PATH; install it with \`${add} ${pkg}\``;
}

/** The Yarn Plug'n'Play manifest (`.pnp.cjs`, or `.pnp.js` of Yarn 2) from `start` up; null when the project has none. */
export async function yarnPnp(runtime: Runtime, start: string): Promise<string | null> {
  for (let dir = resolve(start); ; dir = dirname(dir)) {
    for (const name of [".pnp.cjs", ".pnp.js"]) if ((await runtime.stat(join(dir, name)))?.isFile) return join(dir, name);
    if (dirname(dir) === dir) return null;
  }
}

async function isJsEntry(runtime: Runtime, path: string): Promise<boolean> {
  if (/\.(c|m)?js$/.test(path)) return true;
  if (/\.(cmd|exe|bat|ps1)$/i.test(path)) return false;
  const head = await runtime.readText(path).then(
    (text) => text.slice(0, 200),
    () => "",
  );
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
    const manifest = await readManifest(runtime, dir);
    if (manifest?.name === pkg && typeof manifest.version === "string") return { version: manifest.version, packageDir: dir };
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return null;
}

interface Manifest {
  name?: unknown;
  version?: unknown;
  bin?: unknown;
}

async function readManifest(runtime: Runtime, dir: string): Promise<Manifest | null> {
  return runtime.readText(join(dir, "package.json")).then(
    (text) => JSON.parse(text) as Manifest,
    () => null,
  );
}

/** The entry a manifest's `bin` field declares for `bin` (a string `bin` is the package's only command). */
function binEntry(manifest: Manifest, bin: string): string | null {
  const field = manifest.bin;
  if (typeof field === "string") return field;
  const relative = typeof field === "object" && field !== null ? (field as Record<string, unknown>)[bin] : undefined;
  return typeof relative === "string" ? relative : null;
}

/** An installed engine package: its real directory, its manifest and the entry its `bin` field declares. */
interface FoundPackage {
  packageDir: string;
  manifest: Manifest;
  entry: string;
}

/**
 * Node's own package lookup: `node_modules/<pkg>` in `start` and each of its ancestors, then the same from the real
 * location of `start` (a symlinked project finds its real parents). The package is read through its symlink (pnpm)
 * and reported at its real location.
 */
async function findPackage(runtime: Runtime, start: string, pkg: string, bin: string): Promise<FoundPackage | null> {
  const real = await runtime.realPath(start);
  for (const from of real && real !== start ? [start, real] : [start]) {
    for (let dir = from; ; dir = dirname(dir)) {
      const linked = join(dir, "node_modules", pkg);
      const manifest = await readManifest(runtime, linked);
      const relative = manifest ? binEntry(manifest, bin) : null;
      if (manifest && relative) {
        const packageDir = (await runtime.realPath(linked)) ?? linked;
        return { packageDir, manifest, entry: (await runtime.realPath(join(packageDir, relative))) ?? join(packageDir, relative) };
      }
      if (dirname(dir) === dir) break;
    }
  }
  return null;
}

/**
 * Where an engine's package resolution starts for a check of `paths` (project-relative, POSIX): their longest common
 * path (a lone file is harmless: it has no node_modules), so a check inside a workspace package finds that
 * package's own engines first.
 */
export function resolutionStart(root: string, paths: readonly string[]): string {
  const split = paths.map((path) => (path === "." ? [] : path.split("/")));
  const common: string[] = [];
  for (let index = 0; split.length > 0 && split.every((parts) => parts.length > index && parts[index] === split[0]?.[index]); index++) {
    common.push(split[0]?.[index] as string);
  }
  return join(root, ...common);
}

/** Node's lookup of `name` from inside a package: `<dir>/node_modules/<name>` for each ancestor that is not a node_modules. */
async function findFrom(runtime: Runtime, from: string, name: string): Promise<string | null> {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (basename(dir) !== "node_modules" && (await runtime.stat(candidate))?.isDirectory) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * oxlint's type-aware backend: the oxlint-tsgolint package, found like an engine, run as the native executable of
 * its platform package (so neither node nor a .bin shim is needed); its JS bin only when that is missing.
 */
async function resolveTsgolint(runtime: Runtime, start: string): Promise<{ path: string; version: string | null } | null> {
  const found = await findPackage(runtime, start, "oxlint-tsgolint", "tsgolint");
  if (!found) return null;
  const version = typeof found.manifest.version === "string" ? found.manifest.version : null;
  const platformPackage = await findFrom(runtime, found.packageDir, `@oxlint-tsgolint/${runtime.platform}-${runtime.arch}`);
  const native = platformPackage ? join(platformPackage, runtime.platform === "win32" ? "tsgolint.exe" : "tsgolint") : null;
  return { path: native && (await runtime.stat(native))?.isFile ? native : found.entry, version };
}

/** Options for resolving one engine. */
export interface ResolveOptions {
  /** Where package resolution starts (the checked path inside the project); it walks up from there, past the root. */
  start: string;
  /** How to run a JS entry (a node executable, or the standalone binary's embedded runtime); null: none. */
  node: NodeCommand | null;
}

function launch(entry: string, js: boolean, node: NodeCommand | null): Pick<ResolvedEngine, "command" | "prefixArgs"> {
  return js && node ? { command: node.command, prefixArgs: [...node.args, entry] } : { command: entry, prefixArgs: [] };
}

/** The major version of a resolved engine (0 when it is unknown). */
export function majorVersion(resolved: Pick<ResolvedEngine, "version">): number {
  return Number((resolved.version ?? "").split(".")[0]) || 0;
}

/**
 * Find an engine: its package by Node's package resolution from `start`, run through the entry its `package.json`
 * `bin` declares (JS entries through node or the embedded runtime, so no shebang, shim or PATH lookup is needed);
 * only when no package is installed, the executable on PATH. `node_modules/.bin` shims are never read or run.
 */
export async function resolveEngine(runtime: Runtime, engine: EngineName, options: ResolveOptions): Promise<ResolvedEngine | null> {
  const { pkg, bin } = ENGINES[engine];
  const found = await findPackage(runtime, resolve(options.start), pkg, bin);
  const typeAware = async () => (engine === "oxlint" ? { typeAware: await resolveTsgolint(runtime, resolve(options.start)) } : {});
  const js = found ? await isJsEntry(runtime, found.entry) : false;
  // A JS entry with no node to run it (Deno without node) cannot run: only then is PATH tried although it is installed.
  if (found && !(js && !options.node)) {
    const version = typeof found.manifest.version === "string" ? found.manifest.version : null;
    // A package that is not the engine's own (a stand-in with another name, or no version) is never loaded in memory.
    const packageDir = found.manifest.name === pkg && version ? found.packageDir : null;
    return { engine, ...launch(found.entry, js, options.node), path: found.entry, version, packageDir, source: "package bin", ...(await typeAware()) };
  }
  // Under Yarn Plug'n'Play the project's engines are its zipped packages: one on PATH is not the project's.
  const onPath = (await yarnPnp(runtime, options.start)) ? null : await findOnPath(runtime, bin);
  if (!onPath) return null;
  const path = (await runtime.realPath(onPath)) ?? onPath;
  const jsOnPath = await isJsEntry(runtime, path);
  if (jsOnPath && !options.node) return null;
  // A shim on PATH runs as the executable it is; a link to a JS entry (a global npm install) runs through node.
  const owner = (await owningPackage(runtime, path, pkg)) ?? { version: null, packageDir: null };
  return {
    engine,
    ...(jsOnPath ? launch(path, true, options.node) : { command: onPath, prefixArgs: [] }),
    path,
    ...owner,
    source: "PATH",
    ...(await typeAware()),
  };
}

/**
 * A type-checker's package and bin where they differ from its name: `tsgo` is TypeScript 7's preview compiler
 * (`@typescript/native-preview`), which projects ran before typescript@7 shipped; run on the command line (the API some
 * previews ship is not used).
 */
const CHECKER_PACKAGES: Record<string, [pkg: string, bin: string]> = { tsgo: ["@typescript/native-preview", "tsgo"] };

/**
 * A type-checker that stands in for tsc on the programs a project's scripts run with it (vue-tsc): its package found
 * like an engine's, run through its `bin` entry; null when it is not installed or cannot run here.
 */
export async function resolveTypeChecker(runtime: Runtime, checker: string, options: ResolveOptions): Promise<ResolvedEngine | null> {
  const [pkg, bin] = CHECKER_PACKAGES[checker] ?? [checker, checker];
  const found = await findPackage(runtime, resolve(options.start), pkg, bin);
  if (!found) return null;
  const js = await isJsEntry(runtime, found.entry);
  if (js && !options.node) return null;
  const version = typeof found.manifest.version === "string" ? found.manifest.version : null;
  // svelte-check's and vue-tsc's package directory: a warm host loads their checker from there (typescript/warm-svelte.ts,
  // vue-parts.ts). A tsgo script's preview compiler runs on the command line only, so it names none.
  const packageDir = (checker === "svelte-check" || checker === "vue-tsc") && found.manifest.name === pkg ? found.packageDir : null;
  return { engine: "tsc", ...launch(found.entry, js, options.node), path: found.entry, version, packageDir, source: "package bin" };
}
