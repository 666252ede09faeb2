import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseJsonc } from "../core/jsonc.ts";
import { resolveServerSettings, type ServerConfigKeys, serverConfigKeys, type ServerSettings } from "../core/server-settings.ts";
import { denoShell } from "../runtime/shell-deno.ts";
import { nodeShell } from "../runtime/shell-node.ts";
import type { ProcessShell } from "../runtime/types.ts";
import { CONFIG_FILE, findRoot } from "../service/project/project-root.ts";

// What the stdio front (cli/front.ts) needs before it may answer: that this process is a server start, and the
// settings tools/list depends on, read as openProject reads them.

/**
 * A server start as the front sees it: `--read-only` given, SIGNALINT_FRONT=debug (the front's decisions on stderr),
 * and the process shell it read them from (its environment and working directory: the runtime's, before one exists).
 */
export interface FrontStart {
  readOnly: boolean;
  debug: boolean;
  shell: ProcessShell;
}

/**
 * A bare server start (no verb, stdin not a terminal) or `serve [--read-only]`; null for any other command line, and
 * when SIGNALINT_FRONT turns the front off. The command line is looked at first: `--help`, `--version` and the verbs
 * read no variable here.
 */
export function serverStart(): FrontStart | null {
  const shell = "Deno" in globalThis ? denoShell() : nodeShell();
  const { args } = shell;
  const readOnly = args.length === 2 && args[0] === "serve" && args[1] === "--read-only";
  const server = args.length === 0 ? !shell.stdinIsTerminal : readOnly || (args.length === 1 && args[0] === "serve");
  if (!server) return null;
  let mode: string;
  try {
    mode = shell.env("SIGNALINT_FRONT")?.trim() ?? "";
  } catch {
    // Deno without --allow-env (NotCapable): no front; run.ts meets the same refusal and says which permission.
    return null;
  }
  // 0: the SDK server answers everything, once loaded (measurements and tests compare the two).
  return /^(0|false|no|off)$/i.test(mode) ? null : { readOnly, debug: mode === "debug", shell };
}

/** The settings tools/list depends on, read as openProject reads them; null where anything is unusual (the server decides then). */
export async function frontSettings(start: FrontStart): Promise<ServerSettings | null> {
  const { readOnly, shell } = start;
  const stat = async (path: string) => {
    const info = statSync(path, { throwIfNoEntry: false });
    return info ? { isFile: info.isFile(), isDirectory: info.isDirectory(), isSymlink: false, size: info.size, mtimeMs: info.mtimeMs } : null;
  };
  const env = (name: string) => shell.env(name);
  const root = await findRoot({ cwd: () => shell.cwd(), env, stat }, undefined);
  if (!(await stat(root))?.isDirectory) return null;
  let text: string | null;
  try {
    text = readFileSync(join(root, CONFIG_FILE), "utf8");
  } catch (error) {
    if ((error as { code?: string }).code !== "ENOENT") return null;
    text = null;
  }
  const keys: ServerConfigKeys | null = text === null ? {} : serverConfigKeys(parseJsonc(text));
  return keys === null ? null : resolveServerSettings(keys, env, { readOnly });
}
