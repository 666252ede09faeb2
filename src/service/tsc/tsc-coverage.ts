import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { listTsconfig, type TsconfigListing } from "../../typescript/tsconfig.ts";
import { loadTypeScript } from "../../typescript/warm-program.ts";
import type { WarmTsPool } from "../../typescript/warm-pool.ts";
import { throwIfCancelled } from "../job/check-events.ts";
import type { ResolvedEngine } from "../../engines/types.ts";
import { majorVersion } from "../../engines/resolve.ts";
import type { Runtime } from "../../runtime/types.ts";
import type { EngineJob } from "../job/engine-job.ts";
import { tsconfigStamp } from "../freshness/tsconfig-stamp.ts";
// The walk of the checked paths lives below the engine rooms (lint reads it too); tsc and check reach it here as well.
export { candidateFiles, checkedFiles, isTypeScriptFile, type CheckedFiles } from "../job/checked-files.ts";

/**
 * What one tsconfig includes: its root files as the project's compiler API parses them (TypeScript 5.x/6.x with warm
 * TypeScript on: in the spare warm host on a server's first check, in process from then on), else as
 * `tsc -p <config> --showConfig` lists them.
 */
interface ParsedConfig {
  stamp: string;
  /** null: the config could not be listed (tsc reports why when it runs); it is taken to cover its whole directory. */
  files: Set<string> | null;
  references: string[];
  /** Files confirmed absent from `files` against this listing (a file created later needs a new listing). */
  absent: Set<string>;
}

/**
 * What coverage needs of a tsc run: the common job, whether the compiler API may be loaded, and the warm pool whose
 * spare host lists configs with it (absent: listings run in process or on the command line).
 */
export type CoverageJob = EngineJob & { warmTypeScript: boolean; warm?: Pick<WarmTsPool, "list"> };

/** Per-check memory: configs listed during this check and the stamps read. */
export interface CheckScope {
  listed: Set<string>;
  stamps: Map<string, string>;
  /** Whether the compiler API may be loaded for listings in this check. */
  inProcess: boolean;
}

/** Lists tsconfig contents and answers which files no tsconfig covers; listings are cached by config stamps. */
export class TsconfigCoverage {
  private readonly parsed = new Map<string, ParsedConfig>();
  /** TypeScript packages a check has already used: later checks may list in process (the warm pool loads it anyway). */
  private readonly seen = new Set<string>();
  /** Each config's program files as its last warm run named them (what it imports beyond its listing). */
  private readonly programs = new Map<string, ReadonlySet<string>>();

  constructor(private readonly runtime: Runtime) {}

  /** The listing through the project's own compiler API (TypeScript 5.x/6.x, when warm TypeScript is allowed). */
  private listInProcess(job: CoverageJob, resolved: ResolvedEngine, config: string, scope: CheckScope): TsconfigListing | null {
    const ts = scope.inProcess && job.warmTypeScript && resolved.packageDir ? loadTypeScript(resolved.packageDir) : null;
    return ts ? listTsconfig(ts, config) : null;
  }

  /**
   * The listing with the compiler API: in process once a check has used this TypeScript, else (a server's first check)
   * in the warm pool's spare host, which keeps the compiler loaded for the check's program. Null: the command line.
   */
  private async listWithApi(job: CoverageJob, resolved: ResolvedEngine, config: string, scope: CheckScope): Promise<TsconfigListing | null> {
    try {
      const inProcess = this.listInProcess(job, resolved, config, scope);
      if (inProcess) return inProcess;
    } catch {
      // An API this version lacks: the command line lists it.
    }
    // Only a first check asks a host; TypeScript 7 has no API to list with (the command line does).
    const major = majorVersion(resolved);
    if (scope.inProcess || !job.warm || !job.warmTypeScript || !resolved.packageDir || !(major >= 5 && major < 7)) return null;
    const listed = await job.warm.list(resolved.packageDir, config, job.timeoutMs, job.signal);
    throwIfCancelled(job.signal);
    return listed;
  }

  private async list(job: CoverageJob, resolved: ResolvedEngine, config: string, stamp: string, scope: CheckScope): Promise<ParsedConfig> {
    const api = await this.listWithApi(job, resolved, config, scope);
    if (api) return { stamp, files: api.files && new Set(api.files.map((file) => resolve(file))), references: api.references, absent: new Set() };
    const result = await job.runtime.spawn(resolved.command, [...resolved.prefixArgs, "-p", config, "--showConfig"], {
      cwd: job.root,
      timeoutMs: job.timeoutMs,
      maxOutputBytes: 64 * 1024 * 1024,
      env: { NO_COLOR: "1", FORCE_COLOR: "0" },
      signal: job.signal,
    });
    const dir = dirname(config);
    type Shown = { files?: unknown[]; references?: { path?: unknown }[] };
    let shown: Shown | null;
    try {
      shown = JSON.parse(result.stdout) as Shown;
    } catch {
      // Not JSON: the listing failed (handled below as an unlisted config).
      shown = null;
    }
    // "No inputs were found": the config covers nothing; any other failure: assume it covers its directory.
    // --showConfig omits an empty "files" (solution-style configs).
    const files = shown
      ? new Set((Array.isArray(shown.files) ? shown.files : []).filter((file): file is string => typeof file === "string").map((file) => resolve(dir, file)))
      : /TS18003/.test(result.stdout)
        ? new Set<string>()
        : null;
    const references: string[] = [];
    for (const reference of shown && Array.isArray(shown.references) ? shown.references : []) {
      if (typeof reference?.path !== "string") continue;
      const target = isAbsolute(reference.path) ? reference.path : resolve(dir, reference.path);
      references.push((await this.runtime.stat(target))?.isDirectory ? join(target, "tsconfig.json") : target);
    }
    return { stamp, files, references, absent: new Set() };
  }

  /** The config's listing, re-listed when its stamp changed or (once per check) when asked about an unknown file. */
  private async listing(job: CoverageJob, resolved: ResolvedEngine, config: string, file: string | null, scope: CheckScope): Promise<ParsedConfig> {
    // One stamp per config per check: configs are stat-ed once, however many files ask.
    let stamp = scope.stamps.get(config);
    if (stamp === undefined) {
      stamp = await tsconfigStamp(this.runtime, config);
      scope.stamps.set(config, stamp);
    }
    let parsed = this.parsed.get(config);
    const unknown = (entry: ParsedConfig) => file !== null && entry.files !== null && !entry.files.has(file) && !entry.absent.has(file);
    if (!parsed || parsed.stamp !== stamp || (unknown(parsed) && !scope.listed.has(config))) {
      parsed = await this.list(job, resolved, config, stamp, scope);
      scope.listed.add(config);
      this.parsed.set(config, parsed);
    }
    if (unknown(parsed)) parsed.absent.add(file as string);
    return parsed;
  }

  /** Each config reachable from `config` through references (itself first) with its listing. */
  private async *reachable(
    job: CoverageJob,
    resolved: ResolvedEngine,
    config: string,
    file: string | null,
    scope: CheckScope,
  ): AsyncGenerator<[string, ParsedConfig]> {
    const seen = new Set<string>();
    const queue = [config];
    while (queue.length) {
      const next = queue.shift() as string;
      if (seen.has(next)) continue;
      seen.add(next);
      const parsed = await this.listing(job, resolved, next, file, scope);
      yield [next, parsed];
      queue.push(...parsed.references);
    }
  }

  /** The config reachable from `config` through references (itself first) whose listing includes the file, or null. */
  async memberIncluding(job: CoverageJob, resolved: ResolvedEngine, config: string, file: string, scope: CheckScope): Promise<string | null> {
    for await (const [next, parsed] of this.reachable(job, resolved, config, file, scope)) {
      if (parsed.files === null ? !relative(dirname(next), file).startsWith("..") : parsed.files.has(file)) return next;
    }
    return null;
  }

  /**
   * A check's listing scope. The first check of a TypeScript lists in a warm host or on the command line: loading the
   * API here would block the server's thread longer.
   */
  scopeFor(resolved: ResolvedEngine): CheckScope {
    const scope: CheckScope = { listed: new Set(), stamps: new Map(), inProcess: this.seen.has(resolved.path) };
    this.seen.add(resolved.path);
    return scope;
  }

  /** A config's program as its last warm run found it (absolute paths). */
  rememberProgram(config: string, files: Iterable<string>): void {
    this.programs.set(config, new Set(files));
  }

  /** True when the config's last warm run had the file in its program (an import its listing does not name). */
  programImports(config: string, file: string): boolean {
    return this.programs.get(config)?.has(file) === true;
  }

  /** Each config reachable from `config` (itself first) with the files its listing includes (null: its whole directory). */
  async listings(
    job: CoverageJob,
    resolved: ResolvedEngine,
    config: string,
    scope: CheckScope,
  ): Promise<{ member: string; files: ReadonlySet<string> | null }[]> {
    const out: { member: string; files: ReadonlySet<string> | null }[] = [];
    for await (const [member, parsed] of this.reachable(job, resolved, config, null, scope)) out.push({ member, files: parsed.files });
    return out;
  }

  /** Every config reachable from `config` through references (itself included), from the cached listings. */
  async closure(job: CoverageJob, resolved: ResolvedEngine, config: string, scope: CheckScope): Promise<Set<string>> {
    const seen = new Set<string>();
    for await (const [next] of this.reachable(job, resolved, config, null, scope)) seen.add(next);
    return seen;
  }
}

/** `node_modules/@types` directories from the root upward: automatic type inclusion as from the project root. */
async function typeRoots(runtime: Runtime, root: string): Promise<string[]> {
  const found: string[] = [];
  for (let dir = root; ; dir = dirname(dir)) {
    if ((await runtime.stat(join(dir, "node_modules", "@types")))?.isDirectory) found.push(join(dir, "node_modules", "@types"));
    if (dirname(dir) === dir) return found;
  }
}

/**
 * The compiler options of an inferred program: what tsserver gives files outside every tsconfig (allowJs, JS not
 * type-checked unless it opts in with // @ts-check) plus the settings editors pass for such files (VS Code's
 * implicit project: ES2020, ESNext modules, strictNullChecks and strictFunctionTypes). Module resolution is
 * `bundler` (TypeScript 6+ refuses `node10`); JSX is `preserve` so no JSX runtime is assumed; library .d.ts files
 * are not checked, as an editor shows diagnostics only for the files it opened.
 */
export function inferredCompilerOptions(version: string | null): Record<string, unknown> {
  const major = Number((version ?? "5").split(".")[0]);
  return {
    allowJs: true,
    checkJs: false,
    noEmit: true,
    skipLibCheck: true,
    strictNullChecks: true,
    strictFunctionTypes: true,
    target: "es2020",
    module: "esnext",
    moduleResolution: major >= 5 ? "bundler" : "node",
    jsx: "preserve",
  };
}

/**
 * Write the inferred program's config (outside the project) listing exactly the uncovered files; returns its path.
 * Its directory is named by the content's hash: a config never changes once written, so concurrent checks (of this server or of
 * another one on the same project) with other uncovered files cannot swap the file list under a running tsc.
 */
export async function writeInferredConfig(job: CoverageJob, resolved: ResolvedEngine, files: readonly string[]): Promise<string> {
  const config = { compilerOptions: { ...inferredCompilerOptions(resolved.version), typeRoots: await typeRoots(job.runtime, job.root) }, files };
  const text = `${JSON.stringify(config, null, 2)}\n`;
  const dir = join(job.cacheDir, "tsc", "inferred", job.runtime.sha256(text).slice(0, 16));
  const path = join(dir, "tsconfig.json");
  if ((await job.runtime.stat(path)) === null) {
    await job.runtime.mkdirp(dir);
    await job.runtime.writeFileAtomic(path, text);
  }
  return path;
}
