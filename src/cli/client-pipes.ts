import process from "node:process";
import type { Readable, Writable } from "node:stream";

/** The server's side of the client's pipes (Node's and Deno's `node:process` streams alike). */
export interface ClientPipes {
  stdin: Readable;
  stdout: Writable;
  /** Settles with the reason once the client is gone: end of stdin, or a failed write to stdout (EPIPE, EBADF). */
  gone: Promise<string>;
}

/**
 * Watch stdin and stdout for the client's disappearance. Every failure of either stream is handled here, so a write
 * to a closed pipe is never an uncaught error (which a stray-error handler would report on a closed stderr, again
 * and again: the busy loop this replaces).
 */
export function watchClientPipes(): ClientPipes {
  const { stdin, stdout } = process;
  const gone = new Promise<string>((resolve) => {
    stdin.once("end", () => resolve("stdin closed"));
    stdin.once("close", () => resolve("stdin closed"));
    stdin.on("error", (error: Error) => resolve(`stdin failed: ${error.message}`));
    stdout.on("error", (error: Error) => resolve(`stdout failed: ${error.message}`));
    stdout.once("close", () => resolve("stdout closed"));
  });
  return { stdin, stdout, gone };
}
