// A daemon serves clients started from different shells: each check runs in the environment of the client that
// asked (DESIGN §2, trust boundary; the Nx daemon sends its client's environment with every message).
import { callerOverlay } from "../core/environment.ts";
import type { Runtime } from "./types.ts";

/**
 * The runtime as a client with environment `env` would see it: `env()` and `environment()` read the client's
 * variables, and every process spawned runs in the client's environment (plus what the spawn itself sets).
 */
export function callerRuntime(runtime: Runtime, env: Readonly<Record<string, string>>): Runtime {
  const overlay = callerOverlay(runtime.environment(), env);
  const copy = { ...env };
  return {
    ...runtime,
    env: (name) => copy[name],
    environment: () => ({ ...copy }),
    spawn: (command, args, options) => runtime.spawn(command, args, { ...options, env: { ...overlay, ...options.env } }),
    startProcess: (command, args, options) => runtime.startProcess(command, args, { ...options, env: { ...overlay, ...options.env } }),
  };
}
