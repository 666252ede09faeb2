// Only the slice of the Deno namespace this adapter uses; the source must type-check without Deno's lib.
// deno-lint-ignore no-explicit-any
declare const Deno: any;

/**
 * Total memory: Deno.systemMemoryInfo needs --allow-sys, asked first so that a terminal never gets a permission
 * prompt; without it, or on an older Deno: unknown.
 */
export function denoTotalMemory(): number | null {
  try {
    if (Deno.permissions?.querySync?.({ name: "sys", kind: "systemMemoryInfo" })?.state !== "granted") return null;
    const total = Deno.systemMemoryInfo?.().total;
    return typeof total === "number" && total > 0 ? total : null;
  } catch {
    // Permissions API missing or refused: memory unknown.
    return null;
  }
}
