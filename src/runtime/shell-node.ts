import type { ProcessShell } from "./types.ts";

/** The Node.js process shell: process.argv, its stdio streams, process.exit / process.exitCode. */
export function nodeShell(): ProcessShell {
  return {
    args: process.argv.slice(2),
    stdinIsTerminal: Boolean(process.stdin.isTTY),
    stderrIsTerminal: Boolean(process.stderr.isTTY),
    env: (name) => process.env[name],
    cwd: () => process.cwd(),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString("utf8");
    },
    writeStdout: (text) => void process.stdout.write(text),
    exit: (code) => process.exit(code),
    // process.exit would cut a large report piped to another process short; exitCode waits for stdout to drain.
    finish: (code) => void (process.exitCode = code),
    onStrayError: (report) => {
      process.on("uncaughtException", report);
      process.on("unhandledRejection", report);
    },
    enableCompileCache: (dir) => void nodeModule()?.enableCompileCache?.(dir),
    flushCompileCache: () => void nodeModule()?.flushCompileCache?.(),
    onTerminate: (listener) => void process.once("SIGTERM", listener),
  };
}

/** node:module's compile cache functions, where this Node has them (enable: 22.1; flush: 22.10). */
function nodeModule(): { enableCompileCache?: (dir: string) => unknown; flushCompileCache?: () => void } | undefined {
  return process.getBuiltinModule?.("node:module") as ReturnType<typeof nodeModule>;
}
