import { dirname, join, relative, resolve } from "node:path";
import { ifMissing } from "../core/errors.ts";
import { parseJsonc } from "../core/jsonc.ts";
import type { Runtime } from "../runtime/types.ts";
import { scriptCommands } from "./tsc-scripts.ts";

// Framework configs a tsconfig extends or includes that the framework generates (`.svelte-kit/tsconfig.json` by
// `svelte-kit sync`, `.nuxt/tsconfig.json` by `nuxi prepare` …). A fresh clone lacks them: tsc's TS5083 and the
// TS2307s of `./$types` that follow are not the project's errors. Signalint never runs a generator itself.

/** A generated directory, the command that generates it, and the words a script that runs it contains. */
interface Generator {
  dir: string;
  command: string;
  scriptWords: RegExp;
}

const GENERATORS: readonly Generator[] = [
  { dir: ".svelte-kit", command: "npx svelte-kit sync", scriptWords: /\bsvelte-kit\s+sync\b/ },
  { dir: ".nuxt", command: "npx nuxi prepare", scriptWords: /\b(nuxi|nuxt)\s+(prepare|typecheck)\b/ },
  { dir: ".astro", command: "npx astro sync", scriptWords: /\bastro\s+(sync|check)\b/ },
  { dir: ".react-router", command: "npx react-router typegen", scriptWords: /\breact-router\s+typegen\b/ },
  { dir: ".next/types", command: "npx next typegen", scriptWords: /\bnext\s+typegen\b/ },
];

/** A program whose config needs what a framework generates, missing from the tree. */
export interface GeneratedGap {
  /** The missing generated path (project-relative), as the config names it. */
  missing: string;
  /** What to run, and the project's script that runs it first (if any): one line for the check's answer. */
  action: string;
}

type Raw = { extends?: unknown; include?: unknown; files?: unknown } | null;

/** The generator a path (relative to the project root) lies under, or null. */
function generatorOf(path: string): Generator | null {
  const posix = `/${path.replace(/\\/g, "/")}/`;
  return GENERATORS.find((generator) => posix.includes(`/${generator.dir}/`)) ?? null;
}

/** The root's (and the config's package's) script that runs the generator first, by name, or null. */
async function scriptRunning(runtime: Runtime, dirs: readonly string[], generator: Generator): Promise<string | null> {
  for (const dir of dirs) {
    const text = await runtime.readText(join(dir, "package.json")).catch(ifMissing(null));
    let scripts: unknown;
    try {
      scripts = text === null ? null : (JSON.parse(text) as { scripts?: unknown }).scripts;
    } catch {
      // A package.json that does not parse names no script here (the check says so where it reads it).
      continue;
    }
    if (!scripts || typeof scripts !== "object") continue;
    for (const [name, script] of Object.entries(scripts as Record<string, unknown>)) {
      if (typeof script === "string" && scriptCommands(script).some((words) => generator.scriptWords.test(words.join(" ")))) return name;
    }
  }
  return null;
}

/**
 * The first generated config `tsconfig` (or a config it extends by relative path) extends or includes that is missing:
 * an `extends` target under a generated directory that does not exist, or an `include`/`files` entry under a generated
 * directory that does not exist at all. null when nothing generated is missing.
 */
export async function missingGenerated(runtime: Runtime, root: string, tsconfig: string): Promise<GeneratedGap | null> {
  const queue = [tsconfig];
  const seen = new Set<string>();
  while (queue.length && seen.size < 16) {
    const path = queue.shift() as string;
    if (seen.has(path)) continue;
    seen.add(path);
    let raw: Raw;
    try {
      raw = parseJsonc(await runtime.readText(path)) as Raw;
    } catch {
      // Unreadable or malformed: tsc reports it (a missing config under a generated directory is found by its parent).
      continue;
    }
    const dir = dirname(path);
    const extended = typeof raw?.extends === "string" ? [raw.extends] : Array.isArray(raw?.extends) ? raw.extends : [];
    const targets = extended.filter((target): target is string => typeof target === "string" && /^\.{1,2}[\\/]/.test(target));
    for (const target of targets.map((target) => resolve(dir, /\.json$/.test(target) ? target : `${target}.json`))) {
      const generator = generatorOf(relative(root, target));
      if (generator && (await runtime.stat(target)) === null) return gap(runtime, root, { tsconfig, missing: target, generator });
      queue.push(target);
    }
    const entries = [raw?.include, raw?.files]
      .flatMap((list) => (Array.isArray(list) ? list : []))
      .filter((entry): entry is string => typeof entry === "string");
    for (const entry of entries) {
      const generator = generatorOf(relative(root, resolve(dir, entry)));
      if (!generator) continue;
      const generated = join(root, generatorRoot(relative(root, resolve(dir, entry)), generator));
      if ((await runtime.stat(generated)) === null) return gap(runtime, root, { tsconfig, missing: generated, generator });
    }
  }
  return null;
}

/** The generated directory a path lies under (project-relative), e.g. `app/.svelte-kit`. */
function generatorRoot(path: string, generator: Generator): string {
  const posix = path.replace(/\\/g, "/");
  const at = `/${posix}`.indexOf(`/${generator.dir}/`);
  return posix.slice(0, at) + generator.dir;
}

async function gap(runtime: Runtime, root: string, found: { tsconfig: string; missing: string; generator: Generator }): Promise<GeneratedGap> {
  const missing = relative(root, found.missing).replace(/\\/g, "/");
  const dirs = [...new Set([dirname(found.tsconfig), root])];
  const script = await scriptRunning(runtime, dirs, found.generator);
  const first = script ? ` — the project's \`${script}\` script does this first` : "";
  const config = relative(root, found.tsconfig).replace(/\\/g, "/");
  return {
    missing,
    action: `${config} needs ${missing}, which is generated and missing: run \`${found.generator.command}\`${first} (Signalint never runs it)`,
  };
}
