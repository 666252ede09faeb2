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

/** The lockfiles that name a package manager, and how it runs a dependency's bin. */
const EXEC_BY_LOCKFILE: [string, string[]][] = [
  ["pnpm-lock.yaml", ["pnpm", "exec"]],
  ["yarn.lock", ["yarn"]],
  ["bun.lock", ["bunx"]],
  ["bun.lockb", ["bunx"]],
];

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

/**
 * The form that works on any machine with the project checked out: the project's own installed signalint-mcp
 * through its package manager (pnpm exec, yarn, bunx) when package.json lists it, else `npx -y signalint-mcp`
 * (npx runs a locally installed one first, else fetches it); Deno running the bundle from an http(s) URL stays so.
 */
export async function portableLaunch(runtime: Runtime, root: string): Promise<Launch> {
  if (runtime.name === "deno" && runtime.mainScript && /^https?:/.test(runtime.mainScript))
    return { command: "deno", args: ["run", ...DENO_PERMISSIONS, runtime.mainScript], how: `deno running ${runtime.mainScript}`, portable: true };
  if (await dependsOnSignalint(runtime, root)) {
    for (const [lockfile, exec] of EXEC_BY_LOCKFILE) {
      if (!(await runtime.stat(join(root, lockfile)))) continue;
      const [command, ...args] = exec as [string, ...string[]];
      return { command, args: [...args, PACKAGE], how: `the project's own ${PACKAGE} through ${exec.join(" ")}`, portable: true };
    }
  }
  return { command: "npx", args: ["-y", PACKAGE], how: `npx -y ${PACKAGE} (the project's own when installed, else from npm)`, portable: true };
}
