// The files that import an edit's named files, as the check's tsc programs know them (typescript/dependents.ts): ESLint
// with typed rules lints them too, since their findings read the named files' types (issue 36 item 1). tsc reports
// each program's part with its first answer; ESLint waits for all of them, never for tsc's whole re-check.

/** Every program's dependents (absolute, nearest first), or why they cannot be known. */
export type DependentsAnswer = { files: string[] } | { unknown: string };

/** One check's named files and what its tsc programs say of the files that import them. */
export class CheckDependents {
  /** The programs (tsconfigs) that will report; null until tsc has chosen them. */
  private expected: string[] | null = null;
  /** Per program: its dependents, or why it cannot tell. The first report of a program counts. */
  private readonly reports = new Map<string, string[] | { unknown: string }>();
  private settle: (answer: DependentsAnswer) => void = () => {};
  private settled = false;
  /** Settles once every expected program reported, or when tsc is done (closed). */
  readonly answer: Promise<DependentsAnswer> = new Promise((resolve) => (this.settle = resolve));

  /** `named`: the check's files (absolute). */
  constructor(readonly named: readonly string[]) {}

  /** The programs that run (each reports once). */
  expect(configs: readonly string[]): void {
    this.expected = [...new Set([...(this.expected ?? []), ...configs])];
    this.settleIfComplete();
  }

  /** One program's dependents of the named files (absolute; empty when it holds none of them), or why it cannot tell. */
  report(config: string, files: readonly string[] | { unknown: string }): void {
    if (this.reports.has(config)) return;
    this.reports.set(config, Array.isArray(files) ? [...files] : (files as { unknown: string }));
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
    const parts = this.expected.map((config) => this.reports.get(config) as string[] | { unknown: string });
    const unknown = parts.find((part) => !Array.isArray(part));
    if (unknown) return this.finish(unknown as { unknown: string });
    // Several programs: their lists merged, nearest first (each program's first before any program's second).
    const lists = parts as string[][];
    const files = new Set<string>();
    for (let index = 0; lists.some((list) => index < list.length); index++) for (const list of lists) if (index < list.length) files.add(list[index] as string);
    this.finish({ files: [...files] });
  }

  private finish(answer: DependentsAnswer): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(answer);
  }
}
