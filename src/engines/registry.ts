import type { EngineName } from "../core/contracts.ts";
import { BIOME } from "./biome.ts";
import { DENO } from "./deno.ts";
import { ESLINT } from "./eslint.ts";
import { OXLINT } from "./oxlint.ts";
import { TSC } from "./tsc.ts";
import type { EngineAdapter } from "./types.ts";

/**
 * Every engine, keyed by the names in core/contracts.ts (ENGINE_NAMES): adding a name there without an entry here,
 * or a config key, status or timeout for it, is a compile error.
 */
export const ENGINES: Readonly<Record<EngineName, EngineAdapter>> = { oxlint: OXLINT, tsc: TSC, biome: BIOME, eslint: ESLINT, deno: DENO };
