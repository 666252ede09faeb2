// A long-lived server's head start (issue 17): the warm programs its project's last checks asked for are kept in the
// project's cache directory, and a new daemon or MCP server builds them while the agent is still reading — so the
// first check after a restart, with files edited while nothing ran, finds its program built. The hosts decide what
// to build exactly as a check would; this list only says which programs to ask for.
import { isAbsolute, join } from "node:path";
import { z } from "zod";
import { ifMissing } from "../../core/errors.ts";
import { relativeToRoot } from "../../core/paths.ts";
import { configFileName } from "../../engines/tsconfig.ts";
import type { Runtime } from "../../runtime/types.ts";
import type { WarmProgram, WarmTsPool } from "../../typescript/warm-pool.ts";

const FILE = "warm-programs.json";

const ListSchema = z
  .object({
    format: z.literal(1),
    programs: z.array(z.object({ kind: z.enum(["project", "solution"]), typescriptDir: z.string(), configPath: z.string() }).strict()).max(64),
  })
  .strict();

/** What a prewarm is given: the timeout and memory bound of a check's warm program. */
export interface PrewarmLimits {
  timeoutMs: number;
  memoryLimitBytes: number;
}

/** The list of the project's last warm programs, and the prewarm of a new long-lived server from it. */
export class Prewarm {
  /** The list as last read or written (a check that asked the same programs writes nothing). */
  private written = "";
  private cancel = () => {};
  /** Settles when the prewarm is over: done, skipped, or stopped by a check (tests await it). */
  done: Promise<void> = Promise.resolve();

  constructor(
    private readonly runtime: Runtime,
    /** The project root: the listed configs are under it, and named in issues relative to it. */
    private readonly root: string,
    /** Where the list is kept (null: nowhere; no prewarm, nothing written). */
    private readonly cacheDir: string | null,
    private readonly warm: WarmTsPool,
  ) {}

  /**
   * After `delayMs` without a check, build the listed programs (see WarmTsPool.prewarm). A list that cannot be read or
   * does not have its shape is no list: nothing is built, and the next check writes a new one.
   */
  schedule(delayMs: number, limits: PrewarmLimits): void {
    if (this.cacheDir === null) return;
    this.done = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.cancel = () => {};
        const started = performance.now();
        this.read()
          .then((programs) => this.warm.prewarm(programs, limits))
          .then(({ answered, stored }) => {
            const ms = Math.round(performance.now() - started);
            const held = `${stored} left to a stored answer that holds`;
            if (answered)
              this.runtime.writeStderr(`signalint: prewarmed ${answered} TypeScript program(s) in ${ms} ms (${answered - stored} built, ${held})\n`);
          })
          .catch((error: Error) => this.runtime.writeStderr(`signalint: no prewarm (${error.message})\n`))
          .finally(resolve);
      }, delayMs);
      // Never keeps a process alive on its own.
      (timer as { unref?: () => void }).unref?.();
      this.cancel = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** A check has started, or the server stops: a prewarm not begun never begins, one under way builds no further program. */
  stop(): void {
    this.cancel();
    this.warm.stopPrewarm();
  }

  /**
   * Keep the programs checks were answered from, when they changed (a failed write is tried again after the next
   * check). Only configs under the root: a project without a tsconfig checks a generated one, built by its check.
   */
  async remember(): Promise<void> {
    if (this.cacheDir === null) return;
    const programs = this.warm
      .programsAnswered()
      .filter((program) => this.under(program.configPath))
      .slice(0, 64)
      .map(({ kind, typescriptDir, configPath }) => ({ kind, typescriptDir, configPath }));
    if (!programs.length) return;
    const text = `${JSON.stringify({ format: 1, programs })}\n`;
    if (text === this.written) return;
    try {
      await this.runtime.mkdirp(this.cacheDir);
      await this.runtime.writeFileAtomic(join(this.cacheDir, FILE), text);
      this.written = text;
    } catch (error) {
      this.runtime.writeStderr(`signalint: the list of warm programs was not kept (${(error as Error).message})\n`);
    }
  }

  private async read(): Promise<WarmProgram[]> {
    if (this.cacheDir === null) return [];
    const text = await this.runtime.readText(join(this.cacheDir, FILE)).catch(ifMissing(null));
    if (text === null) return [];
    this.written = text;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // A crash-truncated or foreign file: nothing to prewarm.
      return [];
    }
    const parsed = ListSchema.safeParse(value);
    if (!parsed.success) return [];
    // A program whose compiler or config has gone since is not built (its check would not ask for it); nor one outside
    // the root (a damaged list).
    const usable = async ({ typescriptDir, configPath }: { typescriptDir: string; configPath: string }) =>
      isAbsolute(typescriptDir) &&
      this.under(configPath) &&
      !!(await this.runtime.stat(join(typescriptDir, "package.json"))) &&
      !!(await this.runtime.stat(configPath));
    const present = await Promise.all(parsed.data.programs.map(usable));
    return parsed.data.programs
      .filter((_, index) => present[index])
      .map((program) => ({ ...program, configFile: configFileName(this.root, program.configPath) }));
  }

  /** Under the root, the root itself not (a config file is never the root). */
  private under(path: string): boolean {
    return isAbsolute(path) && (relativeToRoot(this.root, path) ?? ".") !== ".";
  }
}
