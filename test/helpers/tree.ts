import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { after, before } from "node:test";

/** One project tree: project-relative path → kind, size and content hash (links by target, directories by name). */
export type TreeSnapshot = Map<string, string>;

/**
 * Every entry under `root` (files: size and SHA-256; symlinks: their target, never followed; directories), except
 * the `exclude`d paths (the state directory a test configured inside the tree, nothing else).
 */
export function snapshotTree(root: string, exclude: readonly string[] = []): TreeSnapshot {
  const skipped = new Set(exclude.map((path) => resolve(path)));
  const entries: TreeSnapshot = new Map();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (skipped.has(resolve(path))) continue;
      const key = relative(root, path).replace(/\\/g, "/");
      const info = lstatSync(path);
      if (info.isSymbolicLink()) entries.set(key, `link ${readlinkSync(path)}`);
      else if (info.isDirectory()) {
        entries.set(key, "dir");
        walk(path);
      } else entries.set(key, `file ${info.size} ${createHash("sha256").update(readFileSync(path)).digest("hex")}`);
    }
  };
  walk(root);
  return entries;
}

/** Assert that nothing under `root` was created, changed or removed since `before` (the differing paths in the message). */
export function assertTreeUnchanged(root: string, before: TreeSnapshot, exclude: readonly string[] = []): void {
  const after = snapshotTree(root, exclude);
  const changes: string[] = [];
  for (const [path, entry] of after) if (before.get(path) !== entry) changes.push(`${before.has(path) ? "changed" : "written"} ${path}`);
  for (const path of before.keys()) if (!after.has(path)) changes.push(`removed ${path}`);
  assert.deepEqual(changes, [], `Signalint wrote into the project tree ${root}`);
}

/**
 * Snapshots project trees and asserts nothing was written into them: `watch` a tree before a check, `verify` after
 * it (every watched tree); `rebase` after the test's own edits, so only what Signalint wrote is reported.
 */
export class TreeGuard {
  private readonly trees = new Map<string, { before: TreeSnapshot; exclude: string[] }>();

  /** Start watching `root` (again, from its current content); returns it. */
  watch(root: string, exclude: readonly string[] = []): string {
    this.trees.set(root, { before: snapshotTree(root, exclude), exclude: [...exclude] });
    return root;
  }

  /** Take every watched tree's current content as the reference (after the test edited files on purpose). */
  rebase(): void {
    for (const [root, tree] of this.trees) tree.before = snapshotTree(root, tree.exclude);
  }

  /** Assert every watched tree is as it was at `watch`/`rebase`. */
  verify(): void {
    for (const [root, tree] of this.trees) assertTreeUnchanged(root, tree.before, tree.exclude);
  }

  /** Verify and stop watching every tree. */
  verifyAndClear(): void {
    try {
      this.verify();
    } finally {
      this.trees.clear();
    }
  }
}

/**
 * In a describe block: snapshot these trees before its tests and assert after them that nothing was written into
 * them (for trees no test of the block edits, such as the repository's fixtures).
 */
export function guardTrees(roots: () => readonly string[]): void {
  const guard = new TreeGuard();
  before(() => {
    for (const root of roots()) guard.watch(root);
  });
  after(() => guard.verifyAndClear());
}
