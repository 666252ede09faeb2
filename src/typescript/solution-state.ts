// A warm solution's state on disk (issue 17): one file per root config checked (the solution's or a package's view),
// written and read with persisted-state.ts's header, checksum and bound. What is in it is warm-solution.ts's to say.
import { hashText } from "./host-questions.ts";
import { parseStoredSolution, PersistedBuildInfo, type PersistTarget, type StoredSolution } from "./persisted-state.ts";
import type { ProjectRestore } from "./solution-project.ts";

/** Where a solution keeps its state between hosts, and the compiler identity it is written for. */
export interface SolutionPersist {
  target: PersistTarget;
  compiler: string;
}

/** The key a solution's state is stored under: one state per root config. */
const solutionKey = (root: string) => hashText(`solution\0${root}`);

/** Each root's state file, read at most once per host; the project states read wait for their projects' first builds. */
export class SolutionState {
  private readonly stores = new Map<string, PersistedBuildInfo>();
  private readonly read = new Set<string>();
  /** States a prewarm found and left for the first check (see SolutionBuild.storedAnswer's `keep`). */
  private readonly kept = new Map<string, StoredSolution>();
  private readonly restores = new Map<string, ProjectRestore>();
  /** Why persisted state was not used (one line for the server), once. */
  private notice: string | undefined;

  constructor(private readonly persist: SolutionPersist) {}

  wasRead(root: string): boolean {
    return this.read.has(root);
  }

  /**
   * The state of `root` (null: none, already read, or not to be trusted — `takeNotice` says why when damaged). Its
   * projects' states are kept for their first builds, unless `built` says the project is built already. `keep`: the
   * state stays for the next load (a prewarm looked at it; the first check answers from it).
   */
  load(root: string, built: (config: string) => boolean, keep = false): StoredSolution | null {
    const kept = this.kept.get(root);
    if (kept && !keep) this.forget(root);
    if (kept) return kept;
    if (this.read.has(root)) return null;
    this.read.add(root);
    const { text, notice } = this.store(root).load(solutionKey(root));
    const state = text === null ? null : parseStoredSolution(text);
    this.notice ??= text !== null && !state ? `persisted TypeScript state for ${root} ignored (unexpected shape); building afresh` : notice;
    if (!state) return null;
    if (keep) {
      this.kept.set(root, state);
      this.read.delete(root);
    }
    for (const project of state.projects) if (!built(project.config) && !this.restores.has(project.config)) this.restores.set(project.config, project);
    return state;
  }

  /** A state that will not be answered from (null, for its caller to return): read, as if loaded without `keep`. */
  forget(root: string): null {
    this.kept.delete(root);
    this.read.add(root);
    return null;
  }

  /** The persisted state a new project of `config` starts from, once. */
  takeRestore(config: string): ProjectRestore | undefined {
    const restore = this.restores.get(config);
    this.restores.delete(config);
    return restore;
  }

  takeNotice(): string | undefined {
    const notice = this.notice;
    this.notice = undefined;
    return notice;
  }

  save(root: string, state: StoredSolution): void {
    this.store(root).save(solutionKey(root), JSON.stringify(state));
  }

  /** Mark the state of `root` used now, unchanged. */
  touch(root: string): void {
    this.store(root).touch();
  }

  private store(root: string): PersistedBuildInfo {
    let store = this.stores.get(root);
    if (!store) this.stores.set(root, (store = new PersistedBuildInfo(this.persist.target, `solution\0${root}`, this.persist.compiler)));
    return store;
  }
}
