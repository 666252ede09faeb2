/**
 * The hidden argument that starts Signalint as a warm TypeScript host instead of a server or CLI. Its own module: the
 * entry (main.ts) reads it before anything else is loaded.
 */
export const WARM_HOST_MODE = "__signalint-warm-host";

/**
 * Thrown in a warm host that cannot answer for what changed (an imported config, a package install): the check goes to
 * the command line, and a new host serves the next one.
 */
export class HostRestartError extends Error {}
