import { EMBEDDED_NODE_FLAG } from "../engines/resolve.ts";
import type { Runtime } from "../runtime/types.ts";
import { COMMANDS, TOP_LEVEL_FLAGS } from "./commands.ts";

/** Signalint's own first words: never taken for a script, even when a file of that name exists. */
const VERBS = new Set<string>([...COMMANDS.map((command) => command.name), ...TOP_LEVEL_FLAGS]);

function isExistingFile(path: string): boolean {
  try {
    const fs = process.getBuiltinModule?.("node:fs") as typeof import("node:fs") | undefined;
    return fs?.statSync(path).isFile() ?? false;
  } catch {
    // No fs module or no such file: not a file to run.
    return false;
  }
}

/**
 * Inside a standalone binary, decide whether this invocation is really a request to run a JS file as node would:
 * either our own `__signalint-node <script> …` (how JS engines run when no node is on PATH), or an engine that
 * re-spawned `process.execPath` with a script. Returns the script argv, or null for a normal Signalint command.
 */
export function embeddedScriptArgs(runtime: Runtime, argv: readonly string[]): string[] | null {
  if (!runtime.isStandalone || argv.length === 0) return null;
  if (argv[0] === EMBEDDED_NODE_FLAG) return argv.length > 1 ? argv.slice(1) : null;
  const first = argv[0] as string;
  return !VERBS.has(first) && !first.startsWith("-") && isExistingFile(first) ? [...argv] : null;
}

/** Run a JS entry point on this binary's embedded Node runtime, as `node script args…` would. */
export function runEmbeddedScript(scriptArgs: readonly string[]): void {
  const [script, ...rest] = scriptArgs as [string, ...string[]];
  process.argv = [process.execPath, script, ...rest];
  // Module.runMain loads CommonJS and ESM entries (including top-level await) where require() and import() cannot.
  const nodeModule = process.getBuiltinModule?.("node:module") as unknown as { runMain: (main?: string) => void };
  nodeModule.runMain(script);
}
