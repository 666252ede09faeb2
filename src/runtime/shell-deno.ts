import type { ProcessShell } from "./types.ts";

// deno-lint-ignore no-explicit-any
declare const Deno: any;

/**
 * The permissions the server needs under Deno (the README's deno line and what init writes): sys for the user id that
 * owns the daemon's socket directory and the machine's memory, net for the daemon's Unix socket.
 */
export const DENO_PERMISSIONS = ["--allow-read", "--allow-write", "--allow-run", "--allow-env", "--allow-sys", "--allow-net"] as const;

/**
 * What to do about an error that ends the process under Deno: a permission it was not given (Deno 2's NotCapable,
 * earlier PermissionDenied) names the ones the server needs; anything else has no better message than its own.
 */
export function explainDenoFatal(error: unknown): string | null {
  const name = error instanceof Error ? error.name : "";
  if (name !== "NotCapable" && name !== "PermissionDenied") return null;
  const script = typeof Deno.mainModule === "string" ? Deno.mainModule : "<signalint-mcp.mjs>";
  return (
    `Deno refused a permission Signalint needs (${(error as Error).message.split("\n")[0]}). ` + `Run it with: deno run ${DENO_PERMISSIONS.join(" ")} ${script}`
  );
}

type StrayEvent = { preventDefault(): void; reason?: unknown; error?: unknown };

/** The Deno process shell: Deno.args, Deno's stdio, Deno.exit. */
export function denoShell(): ProcessShell {
  const exit = (code: number) => Deno.exit(code);
  return {
    args: [...Deno.args],
    stdinIsTerminal: Deno.stdin.isTerminal(),
    stderrIsTerminal: Deno.stderr.isTerminal(),
    env: (name) => Deno.env.get(name),
    cwd: () => Deno.cwd(),
    readStdin: () => new Response(Deno.stdin.readable).text(),
    writeStdout: (text) => Deno.stdout.writeSync(new TextEncoder().encode(text)),
    exit,
    // Writes are synchronous here: nothing is pending when a verb finishes.
    finish: exit,
    onStrayError: (report) => {
      const target = globalThis as unknown as { addEventListener(type: string, listener: (event: StrayEvent) => void): void };
      target.addEventListener("unhandledrejection", (event) => {
        event.preventDefault();
        report(event.reason);
      });
      target.addEventListener("error", (event) => {
        event.preventDefault();
        report(event.error);
      });
    },
    enableCompileCache: () => {},
    flushCompileCache: () => {},
    // Deno listens for SIGTERM on Unix only (Windows has no such signal).
    onTerminate: (listener) => Deno.build.os !== "windows" && Deno.addSignalListener("SIGTERM", listener),
  };
}
