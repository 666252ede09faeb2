/** The slow suites (paths relative to dist/test) that run in test:dist, not in `npm test`. */
export const SLOW: readonly string[];
/** A tier's files out of every compiled test file (paths relative to dist/test, `/`-separated). */
export const TIERS: Record<"quick" | "main" | "dist", (files: readonly string[]) => string[]>;
