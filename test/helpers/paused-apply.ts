// A server stopped inside apply_diagnostic_fix at one journal stage (SIGNALINT_TEST_JOURNAL=pause:<stage>), for the
// crash test (SIGKILL at that instant) and the race test (other processes run meanwhile).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BUNDLE, call, CLEAN_PATH, DENO, DENO_FLAGS, STATE_HOME_ENV, structured } from "../helpers.ts";

/** What a paused apply leaves to the test: the server's pid, its apply's outcome, and its connection's end. */
export interface PausedApply {
  pid: number;
  /** The preview the apply applies (its files' diffs, for an engine fix). */
  preview: { transactionId: string; files: { file: string; diff?: string }[] };
  /** "answered" when the apply got a result, "killed" when the server died first. */
  applying: Promise<"answered" | "killed">;
  closed: Promise<void>;
}

/**
 * Start a server on `project` (on Node, or Deno), preview the patches (or, given preview_diagnostic_fix's arguments,
 * the engines' fixes they ask), apply them, and resolve once the journal is paused at `stage`.
 */
export async function pausedApply(
  project: string,
  state: string,
  stage: string,
  patches: { file: string; originalContent: string; patchedContent: string }[] | Record<string, unknown>,
  runtime: "node" | "deno" = "node",
): Promise<PausedApply> {
  const transport = new StdioClientTransport({
    command: runtime === "node" ? process.execPath : DENO,
    args: runtime === "node" ? [BUNDLE] : [...DENO_FLAGS, BUNDLE],
    cwd: project,
    // The tests' state home, as every server a helper starts: the journal is tagged with that home's integrity key.
    env: {
      ...STATE_HOME_ENV,
      PATH: CLEAN_PATH,
      HOME: process.env.HOME ?? "",
      SIGNALINT_DAEMON: "0",
      SIGNALINT_STATE_DIR: state,
      SIGNALINT_TEST_JOURNAL: `pause:${stage}`,
    },
    stderr: "pipe",
  });
  let stderr = "";
  const paused = new Promise<void>((resolve) => {
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes(`signalint-test-journal: pause ${stage}\n`)) resolve();
    });
  });
  const client = new Client({ name: "paused-apply", version: "1.0.0" });
  await client.connect(transport);
  const closed = new Promise<void>((resolve) => {
    client.onclose = () => resolve();
  });
  const asked = Array.isArray(patches) ? { patches } : patches;
  const preview = structured<PausedApply["preview"]>(await call(client, "preview_diagnostic_fix", asked));
  const { transactionId } = preview;
  const applying = call(client, "apply_diagnostic_fix", { transactionId, confirm: true }).then(
    () => "answered" as const,
    () => "killed" as const,
  );
  await paused;
  return { pid: transport.pid as number, preview, applying, closed };
}
