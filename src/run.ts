import { runCli } from "./cli/cli.ts";
import { DAEMON_MODE } from "./daemon/protocol.ts";
import { runDaemon } from "./daemon/server.ts";
import { embeddedScriptArgs, runEmbeddedScript } from "./cli/embedded-node.ts";
import type { StdioFront } from "./cli/front.ts";
import { cliIo } from "./cli/io.ts";
import { selectRuntime } from "./runtime/select.ts";
import type { Runtime } from "./runtime/types.ts";
import { WARM_HOST_MODE } from "./typescript/host-protocol.ts";
import { runWarmHost } from "./typescript/warm-host.ts";

export { explainFatal } from "./runtime/select.ts";

/** Signalint in this process (src/main.ts loads it, after starting the stdio front on a server start). */
export async function run(front: StdioFront | null): Promise<void> {
  await main(selectRuntime(), front);
}

/** Verbs go to the CLI; no verb and non-TTY stdin starts the stdio server (taking over from the front). */
async function main(runtime: Runtime, front: StdioFront | null): Promise<void> {
  const argv = runtime.shell.args;
  const script = embeddedScriptArgs(runtime, argv);
  if (script) return runEmbeddedScript(script);
  const role =
    argv[0] === WARM_HOST_MODE ? "warm host" : argv[0] === DAEMON_MODE ? "daemon" : argv[0] === undefined || argv[0] === "serve" ? "server" : "command";
  // One handler in every mode: an error nobody awaited (a background task's) is reported. A long-lived process lives
  // on — a daemon killed by one would leave its socket, record and lock behind, a server would drop its client; a
  // one-shot command ends with 70, as any internal error does (its answer may never come: waiting would be a hang).
  runtime.shell.onStrayError((error) => {
    if (role !== "command") return runtime.writeStderr(`signalint: unexpected error (the ${role} keeps running): ${describe(error)}\n`);
    runtime.writeStderr(`signalint: unexpected error: ${describe(error)}\n`);
    runtime.shell.exit(70);
  });
  if (argv[0] === WARM_HOST_MODE && argv.length === 1) {
    return runWarmHost(runtime.selfChannel(), {
      rssBytes: () => runtime.rssBytes(),
      writeStderr: (text) => runtime.writeStderr(text),
      exit: (code) => runtime.shell.exit(code),
      compileCache: {
        enable: (dir) => runtime.shell.enableCompileCache(dir),
        flush: () => runtime.shell.flushCompileCache(),
      },
    });
  }
  if (argv[0] === DAEMON_MODE && argv.length === 1 && runtime.daemon) {
    const stop = await runDaemon(runtime, runtime.daemon, {
      announce: (line) => runtime.shell.writeStdout(`${line}\n`),
      exit: (code) => runtime.shell.exit(code),
    });
    // `daemon stop` (and a system shutdown) send SIGTERM: release the lock, record and socket before exiting.
    runtime.shell.onTerminate(stop);
    return;
  }
  const code = await runCli({ ...cliIo(runtime), front }, argv);
  // A server that could not start (a bad config) ends now: the front's reading of stdin would keep the process alive.
  if (code !== null) return front ? runtime.shell.exit(code) : runtime.shell.finish(code);
}

/** An error as a person reads it: its stack where it has one. */
export function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
