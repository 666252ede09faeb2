// A warm `tsc -b`: the project-references graph of one tsconfig, each referenced project a warm builder program
// (solution-project.ts), built in tsc -b's order with the declarations they emit kept in memory (solution-build.ts).
import type * as TS from "typescript";
import type { ChangeHint } from "./change-hint.ts";
import { SolutionBuild, type SolutionCheckInfo } from "./solution-build.ts";
import type { SolutionPersist } from "./solution-state.ts";

type Ts = typeof TS;

/**
 * The warm equivalent of `tsc -b <config>` (TypeScript 5.x/6.x): the same build order (references first, cycles
 * reported as tsc -b reports them and nothing built), the same per-project report (tsc -b's own
 * emitFilesAndReportErrors), each project a warm builder program re-checking only the files its edits affect. The
 * declarations each project emits live in memory and every output path of the solution is hidden on disk, so
 * nothing is written and no earlier build's outputs are read; a project whose inputs (its files and the
 * declarations its references emitted) did not change is not re-checked. A referenced project's own config (a
 * `check_files` in one package) is served by a view sharing the same projects: `view(config)`.
 */
export class WarmTsSolution {
  lastUsed = Date.now();
  private readonly build: SolutionBuild;

  /** `persist`: where the build keeps its state for the next host (none: every new host builds afresh). */
  constructor(
    readonly ts: Ts,
    readonly configPath: string,
    persist: SolutionPersist | SolutionBuild | null = null,
  ) {
    this.build = persist instanceof SolutionBuild ? persist : new SolutionBuild(ts, configPath, persist);
  }

  /**
   * Re-check and return diagnostics exactly as a cold `tsc -b <config>` reports them; null when unsupported. With a
   * change hint only what it names (or what the watch cannot see, or what lives in memory) is looked at again.
   */
  check(hint?: ChangeHint | null): { diagnostics: readonly TS.Diagnostic[]; info: SolutionCheckInfo } | null {
    this.lastUsed = Date.now();
    return this.build.check(this.configPath, hint ?? null);
  }

  /**
   * A new host's first check of this config: the answer an earlier host stored, when the build order, every project's
   * root files and every input that answer rests on are unchanged — exactly when a live build would reuse every
   * project. Null: build (each project on its persisted build info and declarations, where they can be trusted).
   * `keep`: a prewarm's look — the answer stays for the first check, and no build follows it.
   */
  storedAnswer(keep = false): unknown {
    return this.build.storedAnswer(this.configPath, keep);
  }

  /** After an answer from disk: build the projects (on their persisted state) for the checks that follow. */
  warmUp(): void {
    if (this.build.answeredFromDisk(this.configPath)) this.check(null);
  }

  /** Keep the build's state and this answer on disk for the next host (nothing when not persisted). */
  persist(answer: unknown): void {
    this.build.persist(this.configPath, answer);
  }

  /** Every file of the programs this config builds (each project's roots and what they import). */
  fileNames(): string[] {
    return this.build.fileNames(this.configPath);
  }

  /** The project program that reported a diagnostic of the last check (for its causes). */
  programOf(diagnostic: TS.Diagnostic): TS.Program | undefined {
    return this.build.programs.get(diagnostic);
  }

  /** After a package install or lockfile change, every project redoes its module resolutions. */
  invalidateResolutions(): void {
    this.build.invalidateResolutions();
  }

  /** Every config a check of this build (from any root) built: a view of the solution serves each of them. */
  coveredConfigs(): string[] {
    return this.build.coveredConfigs();
  }

  /** `tsc -b <config>` for a project of this solution, sharing its warm projects and their declarations. */
  view(config: string): WarmTsSolution {
    return new WarmTsSolution(this.ts, config, this.build);
  }
}
