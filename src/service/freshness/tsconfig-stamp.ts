import { dirname, resolve } from "node:path";
import { ifMissing } from "../../core/errors.ts";
import { parseJsonc } from "../../core/jsonc.ts";
import type { Runtime } from "../../runtime/types.ts";

/** Configs followed at most through `extends` (a chain longer than this, or a cycle, stops there). */
const MAX_CONFIGS = 16;

/** What a config `extends`, as far as its text says (a malformed config extends nothing here: tsc reports it). */
function parseExtends(text: string | null): { extends?: unknown } | null {
  if (text === null) return null;
  try {
    return parseJsonc(text) as { extends?: unknown };
  } catch {
    // A malformed config extends nothing here: tsc reports it when it runs.
    return null;
  }
}

/**
 * A tsconfig listing's stamp (tsc/tsc-coverage.ts keeps a listing while it is equal): the size and mtime of the config
 * and of the configs it extends by relative path. A config it extends from a package (`@tsconfig/node20`) is not
 * stamped; a file a listing does not name is listed again, once per check (tsc-coverage.ts).
 */
export async function tsconfigStamp(runtime: Runtime, config: string): Promise<string> {
  const parts: string[] = [];
  const seen = new Set<string>();
  const queue = [config];
  while (queue.length && seen.size < MAX_CONFIGS) {
    const path = queue.shift() as string;
    if (seen.has(path)) continue;
    seen.add(path);
    const info = await runtime.stat(path);
    parts.push(`${path}:${info?.size ?? -1}:${info?.mtimeMs ?? -1}`);
    // A malformed config extends nothing here (tsc reports its own parse errors); an unreadable one is an error.
    const raw = parseExtends(await runtime.readText(path).catch(ifMissing(null)));
    const extended = typeof raw?.extends === "string" ? [raw.extends] : Array.isArray(raw?.extends) ? raw.extends : [];
    for (const target of extended) {
      if (typeof target !== "string" || !/^\.{1,2}[\\/]/.test(target)) continue;
      const file = resolve(dirname(path), target);
      queue.push(/\.json$/.test(file) ? file : `${file}.json`);
    }
  }
  return parts.join("|");
}
