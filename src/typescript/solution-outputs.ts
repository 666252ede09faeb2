// The declarations a warm solution's projects emitted, held in memory instead of written next to the sources, and
// what each project being built may see of them — as a cold `tsc -b` finds them on disk at that point of its build.
import { dirname } from "node:path";
import { hashText } from "./host-questions.ts";

/** A declaration a project emitted, held in memory. */
export interface Output {
  text: string;
  hash: string;
  project: string;
}

/**
 * By path, then by the project that emitted it, in the order they were emitted: two projects may emit one path (both
 * include the file and neither has an outDir, as in mswjs/msw), and both write it on disk.
 */
export class EmittedDeclarations {
  private readonly outputs = new Map<string, Map<string, Output>>();
  private dirs: Map<string, Set<string>> | null = null;

  /** A project emitted `path` (again: it is now the last to have written it). */
  set(project: string, path: string, text: string): void {
    const byProject = this.outputs.get(path) ?? new Map<string, Output>();
    byProject.delete(project);
    this.outputs.set(path, byProject.set(project, { text, hash: hashText(text), project }));
    this.dirs = null;
  }

  /** Drop a project's outputs that are not in `keep` (all of them without it). */
  prune(project: string, keep?: ReadonlySet<string>): void {
    for (const [path, byProject] of this.outputs) {
      if (keep?.has(path) || !byProject.delete(project)) continue;
      if (byProject.size === 0) this.outputs.delete(path);
    }
    this.dirs = null;
  }

  /** Whether any project holds `path`. */
  has(path: string): boolean {
    return this.outputs.has(path);
  }

  /** The declarations a project emitted, by path. */
  of(project: string): [string, string][] {
    return [...this.outputs].flatMap(([path, byProject]) => {
      const output = byProject.get(project);
      return output ? [[path, output.text] as [string, string]] : [];
    });
  }

  /**
   * What the project being built may read at `path`: in a cold build only the projects built before it (`builtBefore`,
   * in build order) have written theirs, the last of them last. Outside a build (null): the last one emitted.
   */
  visible(path: string, builtBefore: ReadonlySet<string> | null): Output | undefined {
    const byProject = this.outputs.get(path);
    if (!byProject) return undefined;
    // One project wrote it (nearly every path): whether that one was built before. Asked for every file lookup.
    if (byProject.size === 1) {
      const [only] = byProject.values();
      return !builtBefore || (only && builtBefore.has(only.project)) ? only : undefined;
    }
    if (!builtBefore) return [...byProject.values()].at(-1);
    let found: Output | undefined;
    for (const project of builtBefore) found = byProject.get(project) ?? found;
    return found;
  }

  /** Directories holding in-memory outputs, by whose (they exist for module resolution, as after a real build). */
  directories(): Map<string, Set<string>> {
    if (this.dirs) return this.dirs;
    const dirs = new Map<string, Set<string>>();
    for (const [path, byProject] of this.outputs) {
      for (const project of byProject.keys()) {
        for (let dir = dirname(path); !dirs.get(dir)?.has(project) && dir !== dirname(dir); dir = dirname(dir)) {
          const projects = dirs.get(dir) ?? new Set<string>();
          dirs.set(dir, projects.add(project));
        }
      }
    }
    this.dirs = dirs;
    return dirs;
  }

  /** A directory that holds an output the project being built may see (see `visible`). */
  visibleDirectory(path: string, builtBefore: ReadonlySet<string> | null): boolean {
    const projects = this.directories().get(path);
    return !!projects && (!builtBefore || [...projects].some((project) => builtBefore.has(project)));
  }
}
