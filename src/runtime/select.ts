import { createDenoRuntime } from "./deno.ts";
import { createNodeRuntime } from "./node.ts";
import { explainDenoFatal } from "./shell-deno.ts";
import type { Runtime } from "./types.ts";

/** Deno is checked first because Deno also defines `process`. */
const onDeno = "Deno" in globalThis;

/** Pick the runtime once at start. */
export function selectRuntime(): Runtime {
  return onDeno ? createDenoRuntime() : createNodeRuntime();
}

/** A message saying what to do about an error that ends the process, when this runtime knows one (even before it is created). */
export function explainFatal(error: unknown): string | null {
  return onDeno ? explainDenoFatal(error) : null;
}
