/**
 * The hidden argument that starts Signalint as a warm TypeScript host instead of a server or CLI. Its own module: the
 * entry (main.ts) reads it before anything else is loaded.
 */
export const WARM_HOST_MODE = "__signalint-warm-host";
