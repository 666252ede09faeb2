import { createDenoRuntime } from "./deno.ts";
import { createNodeRuntime } from "./node.ts";
import type { Runtime } from "./types.ts";

/** Pick the runtime once at start. Deno is checked first because Deno also defines `process`. */
export function selectRuntime(): Runtime {
  return "Deno" in globalThis ? createDenoRuntime() : createNodeRuntime();
}
