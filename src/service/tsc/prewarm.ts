// A long-lived server's head start (issue 17): the warm programs its project's last checks asked for are kept in the
// project's cache directory, and a new daemon or MCP server builds them while the agent is still reading — so the
// first check after a restart, with files edited while nothing ran, finds its program built. The hosts decide what
// to build exactly as a check would; this list only says which programs to ask for.
import { join } from "node:path";
import { z } from "zod";
import { ifMissing } from "../../core/errors.ts";
import type { Runtime } from "../../runtime/types.ts";
import type { WarmProgram, WarmTsPool } from "../../typescript/warm-pool.ts";

const FILE = "warm-programs.json";

const ListSchema = z
  .object({
    format: z.literal(1),
    programs: z
      .array(z.object({ kind: z.enum(["project", "solution"]), typescriptDir: z.string(), configPath: z.string(), configFile: z.string() }).strict())
      .max(64),
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
          .then((asked) => {
            if (asked) this.runtime.writeStderr(`signalint: prewarmed ${asked} TypeScript program(s) in ${Math.round(performance.now() - started)} ms\n`);
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

  /** A check has started: a prewarm not begun never begins, one under way builds no further program. */
  checkStarted(): void {
    this.cancel();
    this.warm.stopPrewarm();
  }

  /** Keep the programs the checks so far asked for, when they changed (a failed write costs the next start only). */
  async remember(): Promise<void> {
    const programs = this.warm.programsAsked();
    if (!programs.length || this.cacheDir === null) return;
    const text = `${JSON.stringify({ format: 1, programs: programs.slice(0, 64) })}\n`;
    if (text === this.written) return;
    this.written = text;
    try {
      await this.runtime.mkdirp(this.cacheDir);
      await this.runtime.writeFileAtomic(join(this.cacheDir, FILE), text);
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
      return [];
    }
    const parsed = ListSchema.safeParse(value);
    if (!parsed.success) return [];
    // A program whose compiler or config has gone since is not built (its check would not ask for it).
    const present = await Promise.all(
      parsed.data.programs.map(
        async (program) => !!(await this.runtime.stat(join(program.typescriptDir, "package.json"))) && !!(await this.runtime.stat(program.configPath)),
      ),
    );
    return parsed.data.programs.filter((_, index) => present[index]);
  }
}
