import { runCli } from "./cli/cli.ts";
import { embeddedScriptArgs, runEmbeddedScript } from "./cli/embedded-node.ts";
import { selectRuntime } from "./runtime/select.ts";
import { WARM_HOST_MODE } from "./typescript/host-protocol.ts";
import { runWarmHost } from "./typescript/warm-host.ts";

// deno-lint-ignore no-explicit-any
declare const Deno: any;

/** Entry: verbs go to the CLI; no verb and non-TTY stdin starts the stdio server. */
async function main(): Promise<void> {
  const runtime = selectRuntime();
  const isDeno = "Deno" in globalThis;
  const argv: string[] = isDeno ? [...Deno.args] : process.argv.slice(2);
  const script = isDeno ? null : embeddedScriptArgs(argv);
  if (script) return runEmbeddedScript(script);
  if (argv[0] === WARM_HOST_MODE && argv.length === 1) {
    // Loading the project's compiler is most of a cold check: let Node keep its compiled code between hosts.
    if (!isDeno) (process.getBuiltinModule?.("node:module") as { enableCompileCache?: () => unknown } | undefined)?.enableCompileCache?.();
    return runWarmHost(runtime.selfChannel(), {
      rssBytes: () => runtime.rssBytes(),
      writeStderr: (text) => runtime.writeStderr(text),
      exit: (code) => (isDeno ? Deno.exit(code) : process.exit(code)),
    });
  }
  const stdinIsTty = isDeno ? Deno.stdin.isTerminal() : Boolean(process.stdin.isTTY);
  const stderrIsTty = isDeno ? Deno.stderr.isTerminal() : Boolean(process.stderr.isTTY);
  const readStdin = async (): Promise<string> => {
    if (isDeno) return await new Response(Deno.stdin.readable).text();
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  };
  const stdout = (text: string) => {
    if (isDeno) Deno.stdout.writeSync(new TextEncoder().encode(text));
    else process.stdout.write(text);
  };
  const exit = (code: number) => (isDeno ? Deno.exit(code) : process.exit(code));
  const code = await runCli({ runtime, stdout, stdinIsTty, stderrIsTty, readStdin, exit }, argv);
  if (code !== null) {
    if (isDeno) Deno.exit(code);
    process.exitCode = code;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  if ("Deno" in globalThis) Deno.exit(70);
  process.exit(70);
});
