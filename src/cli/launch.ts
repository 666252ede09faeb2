import { join } from "node:path";
import type { Runtime } from "../runtime/types.ts";
import { DENO_PERMISSIONS } from "../runtime/shell-deno.ts";

/** How to start signalint-mcp again, in a client config or a hook. */
export interface Launch {
  command: string;
  args: string[];
  /** How it was launched, for the plan's first line. */
  how: string;
  /** True when the command works on any machine with the project checked out (no absolute paths). */
  portable: boolean;
  /** The project's own installed entry, root-relative, that `command` (node) runs: see launchIn. */
  projectScript?: string;
}

const PACKAGE = "signalint-mcp";

/** A file: URL as a path of the platform: `file:///C:/x/a.mjs` → `C:\\x\\a.mjs` on Windows, `/x/a.mjs` elsewhere. */
export function fileUrlPath(url: string, windows: boolean): string {
  const pathname = decodeURIComponent(new URL(url).pathname);
  return windows && /^\/[A-Za-z]:/.test(pathname) ? pathname.slice(1).replace(/\//g, "\\") : pathname;
}

/** This signalint-mcp exactly as it was launched: a standalone binary, node + the bundle, or deno + the bundle. */
export function absoluteLaunch(runtime: Runtime): Launch {
  if (runtime.isStandalone || runtime.mainScript === null)
    return { command: runtime.execPath, args: [], how: `standalone binary ${runtime.execPath}`, portable: false };
  if (runtime.name === "deno") {
    const script = runtime.mainScript.startsWith("file://") ? fileUrlPath(runtime.mainScript, runtime.platform === "win32") : runtime.mainScript;
    return { command: runtime.execPath, args: ["run", ...DENO_PERMISSIONS, script], how: `deno running ${script}`, portable: false };
  }
  return { command: runtime.execPath, args: [runtime.mainScript], how: `node running ${runtime.mainScript}`, portable: false };
}

/** True when the project's package.json lists signalint-mcp (then its own installed version is what runs). */
async function dependsOnSignalint(runtime: Runtime, root: string): Promise<boolean> {
  try {
    const manifest = JSON.parse(await runtime.readText(join(root, "package.json"))) as Record<string, Record<string, unknown> | undefined>;
    return ["dependencies", "devDependencies", "optionalDependencies"].some((field) => manifest[field]?.[PACKAGE] !== undefined);
  } catch {
    // No readable or parsable package.json: it lists nothing.
    return false;
  }
}

/** The installed package's entry, root-relative (its package.json `bin`; the published layout when not installed yet). */
async function installedEntry(runtime: Runtime, root: string): Promise<string> {
  const fallback = `node_modules/${PACKAGE}/dist/${PACKAGE}.mjs`;
  try {
    const manifest = JSON.parse(await runtime.readText(join(root, "node_modules", PACKAGE, "package.json"))) as { bin?: unknown };
    const bin = typeof manifest.bin === "string" ? manifest.bin : (manifest.bin as Record<string, unknown> | undefined)?.[PACKAGE];
    return typeof bin === "string" && /^[\w./-]+$/.test(bin) && !bin.split("/").includes("..")
      ? `node_modules/${PACKAGE}/${bin.replace(/^\.\//, "")}`
      : fallback;
  } catch {
    // Not installed yet, or a manifest that does not parse: the package's usual entry.
    return fallback;
  }
}

/**
 * The form that works on any machine with the project checked out. When package.json lists signalint-mcp: `node`
 * running the project's own installed entry (`projectScript`, which each client config roots at its workspace variable
 * or leaves relative to the project directory it starts servers in) — no package manager between the client and the
 * server, so no seconds of resolution at every start (docs/benchmarks.md, launch forms); under Yarn Plug'n'Play (no
 * node_modules) `yarn signalint-mcp`. Else `npx -y signalint-mcp` (npx runs a locally installed one first, else
 * fetches it). Deno running the bundle from an http(s) URL stays so.
 */
export async function portableLaunch(runtime: Runtime, root: string): Promise<Launch> {
  if (runtime.name === "deno" && runtime.mainScript && /^https?:/.test(runtime.mainScript))
    return { command: "deno", args: ["run", ...DENO_PERMISSIONS, runtime.mainScript], how: `deno running ${runtime.mainScript}`, portable: true };
  if (await dependsOnSignalint(runtime, root)) {
    if ((await runtime.stat(join(root, ".pnp.cjs"))) || (await runtime.stat(join(root, ".pnp.js"))))
      return { command: "yarn", args: [PACKAGE], how: `the project's own ${PACKAGE} through yarn (Plug'n'Play)`, portable: true };
    const script = await installedEntry(runtime, root);
    return { command: "node", args: [script], how: `the project's own ${PACKAGE} (node ${script})`, portable: true, projectScript: script };
  }
  return { command: "npx", args: ["-y", PACKAGE], how: `npx -y ${PACKAGE} (the project's own when installed, else from npm)`, portable: true };
}

/**
 * The command and arguments a client runs: a project script rooted at `base` (the client's workspace variable, or
 * the absolute root in a user-level config), or left relative (null: the client starts servers in the project).
 */
export function launchIn(launch: Launch, base: string | null): { command: string; args: string[] } {
  if (!launch.projectScript) return { command: launch.command, args: launch.args };
  return { command: launch.command, args: [base === null ? launch.projectScript : `${base}/${launch.projectScript}`] };
}
