// Projects made from a map of files: the one builder the tests use for generated projects.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempDir } from "../helpers.ts";

/** Write one file under `root`, making its parent directories. */
export function writeProjectFile(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** Write every file of the map (project-relative path → text) under `root`. */
export function writeFiles(root: string, files: Readonly<Record<string, string>>): void {
  for (const [path, text] of Object.entries(files)) writeProjectFile(root, path, text);
}

/** A fresh temporary directory holding these files (the caller removes it). */
export function projectFrom(files: Readonly<Record<string, string>>, prefix = "signalint-project-"): string {
  const root = tempDir(prefix);
  writeFiles(root, files);
  return root;
}
