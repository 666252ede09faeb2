// What warm TypeScript programs share about the compiler host's file-system questions: recording each answer (so a
// later check can ask it again), content hashes, and the directory walk behind recursive wildcard watches.
import { createHash } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type * as TS from "typescript";
import { exactStamp } from "../engines/file-stamp.ts";

/** What one file-system question TypeScript asked while building a program answered: kind, path, answer. */
export type Observation = "fileExists" | "directoryExists" | "readFile" | "getDirectories" | "realpath" | "missing";

/** sha256 of a text, hex: the version of a SourceFile and the answer to a read. */
export function hashText(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Same strings in the same order. */
export function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}

/**
 * Ask recorded questions again (keys are `kind\0path`, see recordQuestions), skipping paths `recheck` leaves out; yields
 * each whose answer is different now, with both answers.
 */
export function* changedAnswers<K extends string>(
  observations: ReadonlyMap<string, string>,
  recheck: ((path: string) => boolean) | null,
  answer: (kind: K, path: string) => string,
): Generator<{ key: string; kind: K; path: string; previous: string; now: string }> {
  for (const [key, previous] of observations) {
    const split = key.indexOf("\0");
    const kind = key.slice(0, split) as K;
    const path = key.slice(split + 1);
    if (recheck && !recheck(path)) continue;
    const now = answer(kind, path);
    if (now !== previous) yield { key, kind, path, previous, now };
  }
}

/**
 * Wrap the host's file-system questions so each answer is recorded with `observe` (source reads are tracked by their
 * SourceFile's hash, so reads while `readingSource()` are not; other reads, such as package.json files, are).
 * `directoryGone` decides whether a listed directory is absent (its listing is then recorded as "-").
 */
export function recordQuestions(
  host: TS.CompilerHost,
  observe: (kind: Observation, path: string, answer: string) => void,
  readingSource: () => boolean,
  directoryGone: (path: string) => boolean,
): void {
  const { fileExists, directoryExists, readFile, getDirectories, realpath } = host;
  host.fileExists = (path) => {
    const exists = fileExists.call(host, path);
    observe("fileExists", path, exists ? "1" : "0");
    return exists;
  };
  if (directoryExists) {
    host.directoryExists = (path) => {
      const exists = directoryExists.call(host, path);
      observe("directoryExists", path, exists ? "1" : "0");
      return exists;
    };
  }
  host.readFile = (path) => {
    const text = readFile.call(host, path);
    if (!readingSource()) observe("readFile", path, text === undefined ? "-" : hashText(text));
    return text;
  };
  if (getDirectories) {
    host.getDirectories = (path) => {
      const directories = getDirectories.call(host, path);
      observe("getDirectories", path, directoryGone(path) ? "-" : directories.join("\n"));
      return directories;
    };
  }
  if (realpath) {
    host.realpath = (path) => {
      const real = realpath.call(host, path);
      observe("realpath", path, real);
      return real;
    };
  }
}

/** Every directory below `dir`, skipping node_modules and dot-directories (as TypeScript's include matching does). */
export function subdirectories(dir: string): string[] {
  const out: string[] = [];
  const queue = [dir];
  while (queue.length && out.length < 20_000) {
    const current = queue.pop() as string;
    let entries: import("node:fs").Dirent[] = [];
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      // A directory gone or unreadable: its files are not listed.
      continue;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const path = join(current, entry.name);
      out.push(path);
      queue.push(path);
    }
  }
  return out;
}

/** Files whose change can move module resolution (package installs), checked before reusing resolutions. */
const RESOLUTION_INPUTS = [
  "package.json",
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lock",
  "bun.lockb",
  // What each package manager rewrites on every install.
  "node_modules",
  "node_modules/.package-lock.json",
  "node_modules/.modules.yaml",
  "node_modules/.yarn-state.yml",
  "node_modules/.yarn-integrity",
];

export function resolutionStamp(root: string): string {
  return RESOLUTION_INPUTS.map((name) => exactStamp(join(root, name)) ?? "-").join("|");
}
