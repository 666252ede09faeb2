// The files that import an edit's named files, as the check's tsc programs know them (typescript/dependents.ts): ESLint
// with typed rules lints them too, since their findings read the named files' types (issue 36 item 1). tsc reports
// each program's part with its first answer; ESLint waits for all of them, never for tsc's whole re-check.
import type { ProgramDependents } from "../../typescript/dependents.ts";
import type { PathMapper } from "../../engines/types.ts";

/**
 * Every program's dependents (absolute, nearest first) and the named files one of them holds (of the others no
 * program said anything), or why they cannot be known.
 */
export type DependentsAnswer = { files: string[]; held: ReadonlySet<string> } | { unknown: string };

/** One check's named files and what its tsc programs say of the files that import them. */
export class CheckDependents {
  /** The programs (tsconfigs) that will report; null until tsc has chosen them. */
  private expected: string[] | null = null;
  /** Per program: what it holds and its dependents, or why it cannot tell. The first report of a program counts. */
  private readonly reports = new Map<string, ProgramDependents | { unknown: string }>();
  private settle: (answer: DependentsAnswer) => void = () => {};
  private settled = false;
  /** Settles once every expected program reported, or when tsc is done (closed). */
  readonly answer: Promise<DependentsAnswer> = new Promise((resolve) => (this.settle = resolve));

  /**
   * `named`: the check's files (absolute); `toRelative`: the project's own mapper of a program's file to a root-relative
   * path (never the check's counting one: an importer is no issue filtered out).
   */
  constructor(
    readonly named: readonly string[],
    readonly toRelative: PathMapper,
  ) {}

  /** The programs that run (each reports once). */
  expect(configs: readonly string[]): void {
    this.expected = [...new Set([...(this.expected ?? []), ...configs])];
    this.settleIfComplete();
  }

  /** One program's answer: the named files it holds (absolute) and their dependents, or why it cannot tell. */
  report(config: string, answer: ProgramDependents | { unknown: string }): void {
    if (this.reports.has(config)) return;
    this.reports.set(config, "unknown" in answer ? answer : { held: [...answer.held], files: [...answer.files] });
    this.settleIfComplete();
  }

  /** tsc is done or never ran (`why`): what is not reported now is not known. */
  close(why: string): void {
    if (this.expected === null) return this.finish({ unknown: why });
    for (const config of this.expected) this.report(config, { unknown: why });
    this.settleIfComplete();
  }

  private settleIfComplete(): void {
    if (this.expected === null || !this.expected.every((config) => this.reports.has(config))) return;
    const parts = this.expected.map((config) => this.reports.get(config) as ProgramDependents | { unknown: string });
    // A program that cannot tell may hold the files: nothing is known then, whatever the others said.
    const unknown = parts.find((part): part is { unknown: string } => "unknown" in part);
    if (unknown) return this.finish(unknown);
    // Several programs: their lists merged, nearest first (each program's first before any program's second). A program
    // holding none of the files adds nothing, and says nothing of them either: `held` keeps which were answered for.
    const lists = (parts as ProgramDependents[]).map((part) => part.files);
    const files = new Set<string>();
    for (let index = 0; lists.some((list) => index < list.length); index++) for (const list of lists) if (index < list.length) files.add(list[index] as string);
    this.finish({ files: [...files], held: new Set((parts as ProgramDependents[]).flatMap((part) => part.held)) });
  }

  private finish(answer: DependentsAnswer): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(answer);
  }
}
