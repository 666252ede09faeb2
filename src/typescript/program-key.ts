import type { WarmKind } from "./host-protocol.ts";
import { typescriptIdentity } from "./warm-program.ts";

/**
 * Warm programs are keyed by the compiler's identity (its location and the stamps of its package files), the kind
 * and the tsconfig: a TypeScript upgraded in place, or a node_modules/typescript link moved to another version, is
 * another compiler and gets a new program (a new host); so does a config that gained or lost its references.
 * svelte-check's and vue-tsc's identity is their own package's.
 */
export function programKey(typescriptDir: string, kind: WarmKind, configPath: string): string {
  return `${typescriptIdentity(typescriptDir)}\0${kind}\0${configPath}`;
}

/**
 * True when the program under `key` replaces the one under `other`: the same config, another compiler or kind of the
 * same checker. svelte-check's (vue-tsc's) program of a config is not tsc's: a project may run both on one config, each kept.
 */
export function replaces(key: string, other: string): boolean {
  const [kind, config] = key.split("\0").slice(-2);
  const [otherKind, otherConfig] = other.split("\0").slice(-2);
  const family = (name: string | undefined) => (name === "svelte" || name === "vue" ? name : "typescript");
  return other !== key && config === otherConfig && family(kind) === family(otherKind);
}
