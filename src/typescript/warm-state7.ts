// What a TypeScript 7 program rests on, and what it keeps on disk (issue 17). tsgo asks every file-system question
// through the API's callbacks — its config's reads and directory walk, module resolution's lookups, every read — so
// the recorded answers are the whole of an answer's inputs. A host stores the last answer with them (reads by content
// hash); the next host's first check answers from it when every one still holds, before tsgo is even started.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { fileStamp, isRacyStamp } from "../engines/file-stamp.ts";

/** The file-system questions tsgo asks through the API's callbacks (each is answered by the real file system). */
export type Question = "readFile" | "fileExists" | "directoryExists" | "getAccessibleEntries" | "realpath";

/** A file's content as a comparable string ("-": unreadable). */
export function contentHash(path: string): string {
  try {
    return createHash("sha256").update(readFileSync(path)).digest("hex");
  } catch {
    // Unreadable or gone: "-", which a readable file never hashes to.
    return "-";
  }
}

/** Our own answer to a question, as a comparable string: stamps for reads and listings, so any change counts. */
export function answer(kind: Question, path: string): string {
  if (kind === "realpath") {
    try {
      // One realpath(3) call rather than an lstat per path component.
      return realpathSync.native(path);
    } catch {
      // No such path: itself, as the compiler would see it.
      return path;
    }
  }
  // Config and package.json files by content (small, and often rewritten just before a check); others by stamp.
  if (kind === "readFile") return path.endsWith(".json") ? contentHash(path) : (fileStamp(path) ?? "-");
  if (kind === "getAccessibleEntries") {
    try {
      // The listing itself (directories and symlinks marked with a trailing slash), so created and deleted files can be named.
      return readdirSync(path, { withFileTypes: true })
        .map((entry) => (entry.isDirectory() || entry.isSymbolicLink() ? `${entry.name}/` : entry.name))
        .sort()
        .join("\n");
    } catch {
      // Unreadable or gone: "-", which a listing never is.
      return "-";
    }
  }
  try {
    const stats = statSync(path);
    return (kind === "fileExists" ? stats.isFile() : stats.isDirectory()) ? "1" : "0";
  } catch {
    // No such path: "0", as the compiler's own check answers.
    return "0";
  }
}

/** What one program keeps on disk: its last answer and every recorded question (`kind\0path`) with its answer. */
export interface StoredTs7 {
  answer: unknown;
  record: [string, string][];
}

/** A stored state's text as written; null when it does not have the shape (never trusted then). */
export function parseStoredTs7(text: string): StoredTs7 | null {
  try {
    const state = JSON.parse(text) as Partial<StoredTs7>;
    const ok =
      state.answer !== undefined &&
      Array.isArray(state.record) &&
      state.record.every((pair) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === "string" && typeof pair[1] === "string");
    return ok ? (state as StoredTs7) : null;
  } catch {
    // A crash-truncated or foreign file: no stored state.
    return null;
  }
}

/** The answer a restarted host compares with: reads by content (a stamp says nothing across machines or a checkout). */
function lastingAnswer(kind: Question, path: string): string {
  return kind === "readFile" ? contentHash(path) : answer(kind, path);
}

const split = (key: string) => {
  const at = key.indexOf("\0");
  return { kind: key.slice(0, at) as Question, path: key.slice(at + 1) };
};

/**
 * The record to store for an answer built on `observations` (live answers: reads by stamp): each read by the hash of
 * its content, taken now while its stamp is still the one tsgo's read left, or for a file read with a racy stamp the
 * hash taken at that read (`racyReads`) — else null (a file written since the build: nothing is stored, and the next
 * check sees the change). Other answers are kept as recorded: they are what the answer rests on, and a restart
 * compares them with the file system then.
 */
export function lastingRecord(
  observations: ReadonlyMap<string, string>,
  racyReads: ReadonlyMap<string, string>,
  /** Hashes taken by earlier calls, by path with the stamp they were taken at (an untouched file is not read again). */
  hashes: Map<string, [stamp: string, hash: string]>,
): [string, string][] | null {
  const record: [string, string][] = [];
  for (const [key, recorded] of observations) {
    const { kind, path } = split(key);
    if (kind !== "readFile") {
      record.push([key, recorded]);
      continue;
    }
    if (path.endsWith(".json")) {
      if (contentHash(path) !== recorded) return null;
      record.push([key, recorded]);
      continue;
    }
    if (recorded === "-") {
      if (fileStamp(path) !== null) return null;
      record.push([key, "-"]);
      continue;
    }
    if (isRacyStamp(recorded)) {
      const hash = racyReads.get(path);
      if (hash === undefined) return null;
      record.push([key, hash]);
      continue;
    }
    const known = hashes.get(path);
    const hash = known?.[0] === recorded ? known[1] : contentHash(path);
    // Stamped again after reading (or instead of it): a write since is a different stamp.
    if (fileStamp(path) !== recorded) return null;
    hashes.set(path, [recorded, hash]);
    record.push([key, hash]);
  }
  return record;
}

/** True when every stored answer still holds (reads compared by content). */
export function recordHolds(record: readonly [string, string][]): boolean {
  for (const [key, stored] of record) {
    const { kind, path } = split(key);
    if (lastingAnswer(kind, path) !== stored) return false;
  }
  return true;
}
