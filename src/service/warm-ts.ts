import { statSync } from "node:fs";
import { join } from "node:path";
import { WarmTsProgram, loadTypeScript } from "../engines/tsc-warm.ts";

/** Warm programs kept at most (one per tsconfig); the least recently used one is released first. */
export const MAX_WARM_PROGRAMS = 2;
/** A warm program unused for this long is released. */
export const WARM_IDLE_MS = 15 * 60 * 1000;

/** Files whose change can move module resolution (package installs), checked before reusing resolutions. */
const RESOLUTION_INPUTS = ["package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock", "bun.lockb", "node_modules", "node_modules/.package-lock.json"];

function resolutionStamp(root: string): string {
  return RESOLUTION_INPUTS.map((name) => {
    try {
      const stats = statSync(join(root, name), { bigint: true });
      return `${stats.mtimeNs}:${stats.size}`;
    } catch {
      return "-";
    }
  }).join("|");
}

/** The server's warm TypeScript programs: bounded in number, released when idle, rebuilt after a failure. */
export class WarmTsPool {
  private readonly programs = new Map<string, WarmTsProgram>();
  private stamp = "";
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(private readonly root: string) {
    this.timer = setInterval(() => this.releaseIdle(), 60_000);
    // Never keep the process alive just for this.
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** The warm program for a tsconfig, or null when the project's TypeScript has no compiler API (TS 7). */
  programFor(typescriptDir: string, configPath: string): WarmTsProgram | null {
    const stamp = resolutionStamp(this.root);
    if (stamp !== this.stamp) {
      this.stamp = stamp;
      for (const program of this.programs.values()) program.invalidateResolutions();
    }
    const key = `${typescriptDir}\0${configPath}`;
    let program = this.programs.get(key);
    if (!program) {
      const ts = loadTypeScript(typescriptDir);
      if (!ts) return null;
      program = new WarmTsProgram(ts, configPath);
    }
    this.programs.delete(key);
    this.programs.set(key, program);
    while (this.programs.size > MAX_WARM_PROGRAMS) this.programs.delete(this.programs.keys().next().value as string);
    return program;
  }

  /** Forget a program (after it threw): the next check builds a new one. */
  discard(typescriptDir: string, configPath: string): void {
    this.programs.delete(`${typescriptDir}\0${configPath}`);
  }

  private releaseIdle(): void {
    const now = Date.now();
    for (const [key, program] of this.programs) if (now - program.lastUsed > WARM_IDLE_MS) this.programs.delete(key);
  }

  /** Stop the idle timer (tests and shutdown). */
  close(): void {
    clearInterval(this.timer);
    this.programs.clear();
  }
}
