import type { Runtime } from "../runtime/types.ts";
import type { StdioFront } from "./front.ts";

/** What the shell needs to act on a command: write to stdout, and the exit code (null: keep running). */
export interface CliIo {
  runtime: Runtime;
  stdout: (text: string) => void;
  stdinIsTty: boolean;
  stderrIsTty: boolean;
  /** The whole of stdin (hook input); read only by the verbs that take it. */
  readStdin: () => Promise<string>;
  /** End the process now: a server whose client is gone must not be kept alive by anything still pending. */
  exit: (code: number) => void;
  /** The stdio front that answered the client while Signalint loaded (a server start): serve takes over from it. */
  front?: StdioFront | null;
}

/** The CLI's view of a runtime's process shell. */
export function cliIo(runtime: Runtime): CliIo {
  const { shell } = runtime;
  return {
    runtime,
    stdout: (text) => shell.writeStdout(text),
    stdinIsTty: shell.stdinIsTerminal,
    stderrIsTty: shell.stderrIsTerminal,
    readStdin: () => shell.readStdin(),
    exit: (code) => shell.exit(code),
  };
}
