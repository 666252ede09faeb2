import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseJsonc } from "../core/jsonc.ts";
import { exactStamp } from "../engines/file-stamp.ts";
import { WarmTsProgram, loadTypeScript, typescriptIdentity } from "./warm-program.ts";
import { WarmTs7Program, loadTs7Api } from "./warm-program7.ts";
import { WarmTsSolution } from "./warm-solution.ts";

/** Warm programs kept at most (one per tsconfig); the least recently used one is released first. */
export const MAX_WARM_PROGRAMS = 3;
/** A warm program unused for this long is released (a TypeScript 7 process is stopped). */
export const WARM_IDLE_MS = 15 * 60 * 1000;
/** Above this resident size the server keeps only the warm program it used last. */
export const WARM_MEMORY_LIMIT_BYTES = 1.5 * 1024 ** 3;

/** Files whose change can move module resolution (package installs), checked before reusing resolutions. */
const RESOLUTION_INPUTS = [
  "package.json",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lock",
  "bun.lockb",
  // What each package manager rewrites on every install.
  "node_modules",
  "node_modules/.package-lock.json",
  "node_modules/.modules.yaml",
  "node_modules/.yarn-state.yml",
  "node_modules/.yarn-integrity",
];

/** True when the tsconfig lists project references (`references` is never inherited through `extends`). */
function hasReferences(configPath: string): boolean {
  try {
    const references = (parseJsonc(readFileSync(configPath, "utf8")) as { references?: unknown } | null)?.references;
    return Array.isArray(references) && references.length > 0;
  } catch {
    return false;
  }
}

function resolutionStamp(root: string): string {
  return RESOLUTION_INPUTS.map((name) => exactStamp(join(root, name)) ?? "-").join("|");
}

/**
 * Warm programs are keyed by the compiler's identity (its location and the stamps of its package files) and the
 * tsconfig: a TypeScript upgraded in place, or a node_modules/typescript link moved to another version, is another
 * compiler and gets a new program, built from a cold run.
 */
function programKey(typescriptDir: string, configPath: string): string {
  return `${typescriptIdentity(typescriptDir)}\0${configPath}`;
}

/** A warm program of either TypeScript generation. */
export type WarmProgram = { kind: "ts5"; program: WarmTsProgram | WarmTsSolution } | { kind: "ts7"; program: WarmTs7Program };

/** The server's warm TypeScript programs: bounded in number, released when idle, rebuilt after a failure. */
export class WarmTsPool {
  private readonly programs = new Map<string, WarmProgram>();
  private stamp = "";
  private readonly warming = new Set<string>();
  private readonly inflight = new Set<Promise<void>>();
  private readonly pending = new Map<string, { typescriptDir: string; configPath: string }>();
  private closed = false;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly root: string,
    private readonly warn: (message: string) => void = () => {},
    private readonly rssBytes: () => number = () => 0,
    private readonly memoryLimit = WARM_MEMORY_LIMIT_BYTES,
  ) {
    this.timer = setInterval(() => this.releaseIdle(), 60_000);
    // Never keep the process alive just for this.
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** The built warm program for a tsconfig, or null when there is none yet (see warmUpLater). */
  ready(typescriptDir: string, configPath: string): WarmProgram | null {
    const stamp = resolutionStamp(this.root);
    if (stamp !== this.stamp) {
      this.stamp = stamp;
      for (const warm of this.programs.values()) warm.program.invalidateResolutions();
    }
    const key = programKey(typescriptDir, configPath);
    // A program built by another compiler for this config (TypeScript upgraded or swapped): never answer from it.
    for (const other of [...this.programs.keys()]) if (other !== key && other.endsWith(`\0${configPath}`)) this.release(other);
    const warm = this.programs.get(key) ?? this.solutionCovering(typescriptDir, configPath);
    if (!warm?.program.isWarm) return null;
    this.programs.delete(key);
    this.programs.set(key, warm);
    this.enforceMemoryLimit(key);
    return warm;
  }

  /**
   * Ask for a program to be built in the background once the current check has answered (that check used the
   * command line, which is faster cold than loading the compiler in process), so the next check is incremental.
   */
  warmUpLater(typescriptDir: string, configPath: string): void {
    this.pending.set(programKey(typescriptDir, configPath), { typescriptDir, configPath });
  }

  /** Called when a check has finished: start the requested warm-ups after its response has gone out. */
  startPending(): void {
    for (const [key, { typescriptDir, configPath }] of this.pending) {
      this.pending.delete(key);
      if (this.warming.has(key) || this.closed) continue;
      this.warming.add(key);
      let finish = () => {};
      const finished = new Promise<void>((resolve) => (finish = resolve));
      this.inflight.add(finished);
      const timer = setTimeout(async () => {
        let warm: WarmProgram | null = null;
        try {
          if (this.closed) return;
          warm = await this.create(typescriptDir, configPath);
          if (!warm) this.warn(`no warm TypeScript program for ${configPath} (this TypeScript or runtime has no usable compiler API); tsc runs cold each time`);
          // The compiler changed since the check that asked for this program: the next cold check asks again.
          if (!warm || this.closed || programKey(typescriptDir, configPath) !== key) return void (warm?.kind === "ts7" && warm.program.close());
          warm.program.check();
          this.programs.set(key, warm);
          while (this.programs.size > MAX_WARM_PROGRAMS) this.release(this.programs.keys().next().value as string);
          this.enforceMemoryLimit(key);
        } catch (error) {
          this.warn(`could not build a warm TypeScript program for ${configPath}; tsc runs cold: ${(error as Error).message}`);
          if (warm?.kind === "ts7") warm.program.close();
          this.release(key);
        } finally {
          this.warming.delete(key);
          this.inflight.delete(finished);
          finish();
        }
      }, 100);
      (timer as { unref?: () => void }).unref?.();
    }
  }

  /** Resolves once every warm-up started so far has finished (or failed). */
  async settled(): Promise<void> {
    await Promise.all([...this.inflight]);
  }

  private async create(typescriptDir: string, configPath: string): Promise<WarmProgram | null> {
    const ts = loadTypeScript(typescriptDir);
    // A config with project references is a warm `tsc -b` (TypeScript 7's API has no build mode: command line).
    const references = hasReferences(configPath);
    if (ts) return { kind: "ts5", program: references ? new WarmTsSolution(ts, configPath) : new WarmTsProgram(ts, configPath) };
    if (references) return null;
    const Api = await loadTs7Api(typescriptDir);
    return Api ? { kind: "ts7", program: new WarmTs7Program(Api, configPath, this.root) } : null;
  }

  /**
   * A referenced project's config (a check of files in one package) served by a warm solution that builds it, as a
   * view sharing that solution's projects; kept in the pool under its own key.
   */
  private solutionCovering(typescriptDir: string, configPath: string): WarmProgram | undefined {
    const prefix = `${typescriptIdentity(typescriptDir)}\0`;
    // A package without references of its own is a plain program, not a build.
    if (!hasReferences(configPath)) return undefined;
    for (const [key, warm] of this.programs) {
      if (!key.startsWith(prefix) || !(warm.program instanceof WarmTsSolution) || !warm.program.covers(configPath)) continue;
      const view: WarmProgram = { kind: "ts5", program: warm.program.view(configPath) };
      this.programs.set(programKey(typescriptDir, configPath), view);
      return view;
    }
    return undefined;
  }

  /** Forget a program (after it threw): the next check builds a new one. */
  discard(typescriptDir: string, configPath: string): void {
    this.release(programKey(typescriptDir, configPath));
  }

  private release(key: string): void {
    const warm = this.programs.get(key);
    if (warm?.kind === "ts7") warm.program.close();
    this.programs.delete(key);
  }

  /** Over the memory limit, release every warm program but `keep` (a TypeScript 7 server lives in its own process). */
  private enforceMemoryLimit(keep: string): void {
    const rss = this.rssBytes();
    if (rss <= this.memoryLimit) return;
    for (const key of this.programs.keys()) if (key !== keep) this.release(key);
    this.warn(`resident memory ${(rss / 1024 ** 2).toFixed(0)} MB is over ${(this.memoryLimit / 1024 ** 2).toFixed(0)} MB: kept only the warm program in use`);
  }

  private releaseIdle(): void {
    const now = Date.now();
    for (const [key, warm] of this.programs) if (now - warm.program.lastUsed > WARM_IDLE_MS) this.release(key);
  }

  /** Stop the idle timer and every warm process (tests and shutdown). */
  close(): void {
    this.closed = true;
    clearInterval(this.timer);
    for (const key of this.programs.keys()) this.release(key);
  }
}
