// TypeScript's incremental state kept on disk between warm hosts (issue 17): a warm program's build info — per-file
// versions (content hashes), signatures, references and semantic diagnostics — written after a check and read when
// the next host builds the program, so a restart re-checks only the files that changed while nothing ran. Each file
// carries a header (format, Signalint and TypeScript versions, the program's key, the payload's length and SHA-256):
// damaged, truncated, foreign or mismatched state is never trusted. Written temp + rename; bounded per user, least
// recently used projects evicted first. Runs in the host process (synchronous node:fs, as the compiler API is).
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { InputsRecord } from "./warm-builder.ts";

/** Where and how a host keeps persisted state (sent by the server with each request). */
export interface PersistTarget {
  /** The project's cache directory; state goes to `<dir>/tsc-state/`. */
  dir: string;
  /** Directory whose project cache directories share the size bound (the OS cache base); null: `dir` alone. */
  evictBase: string | null;
  /** The bound on every project's persisted TypeScript state under `evictBase` together, in bytes. */
  maxBytes: number;
  /** Signalint's version: state written by another version is ignored. */
  version: string;
}

/**
 * What one program keeps on disk: TypeScript's build info, the last answer (issues as the host reports them) with the
 * program's root files and every input that answer rests on — a new host answers from it only when all are unchanged.
 */
export interface StoredState {
  buildInfo: string;
  answer: unknown;
  roots: string[];
  inputs: InputsRecord;
}

/** A stored state's text as written by `save`; null when it does not have the shape (never trusted then). */
export function parseStoredState(text: string): StoredState | null {
  try {
    const state = JSON.parse(text) as Partial<StoredState>;
    const pairs = (value: unknown) => Array.isArray(value) && value.every((pair) => Array.isArray(pair) && pair.length === 2);
    const ok =
      typeof state.buildInfo === "string" &&
      Array.isArray(state.roots) &&
      typeof state.inputs === "object" &&
      pairs(state.inputs?.hashes) &&
      pairs(state.inputs?.observations);
    return ok ? (state as StoredState) : null;
  } catch {
    // A crash-truncated or foreign file: no stored state.
    return null;
  }
}

/**
 * What a warm solution (`tsc -b`, warm-solution.ts) keeps on disk for one root config: the last answer with the build
 * order and each project's root files it came from, every input it rests on (outputs of the build itself left out:
 * they follow from the rest), and per project TypeScript's build info (keyed by the project's options) and the
 * declarations it emitted — what a cold `tsc -b` would find on disk after its last build, kept outside the tree.
 */
export interface StoredSolution {
  answer: unknown;
  order: string[];
  roots: [string, string[]][];
  inputs: InputsRecord;
  projects: { config: string; key: string; buildInfo: string; outputs: [string, string][] }[];
}

/** A stored solution's text as written; null when it does not have the shape (never trusted then). */
export function parseStoredSolution(text: string): StoredSolution | null {
  try {
    const state = JSON.parse(text) as Partial<StoredSolution>;
    const strings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === "string");
    const pairs = (value: unknown) => Array.isArray(value) && value.every((pair) => Array.isArray(pair) && pair.length === 2);
    const ok =
      strings(state.order) &&
      pairs(state.roots) &&
      (state.roots ?? []).every(([config, roots]) => typeof config === "string" && strings(roots)) &&
      typeof state.inputs === "object" &&
      pairs(state.inputs?.hashes) &&
      pairs(state.inputs?.observations) &&
      Array.isArray(state.projects) &&
      state.projects.every(
        (project) => typeof project?.config === "string" && typeof project.key === "string" && typeof project.buildInfo === "string" && pairs(project.outputs),
      );
    return ok ? (state as StoredSolution) : null;
  } catch {
    // A crash-truncated or foreign file: no stored state.
    return null;
  }
}

/**
 * The compiler's identity for persisted state: its version and a hash of its code (a patched or rebuilt compiler
 * of the same version is another compiler); content, not stamps, so a reinstall (CI) keeps its state.
 */
export function compilerIdentity(version: string, typescriptDir: string): string {
  try {
    return `${version}+${createHash("sha256")
      .update(readFileSync(join(typescriptDir, "lib", "typescript.js")))
      .digest("hex")
      .slice(0, 16)}`;
  } catch {
    // No readable typescript.js: the version alone identifies it.
    return version;
  }
}

/**
 * A host's one look at a program's stored answer (TypeScript 5/6 and 7 alike): the first check takes it when it holds
 * and the program is built after the answer; a prewarm's look (`keep`) leaves a holding answer for that check and
 * builds nothing. Once a look finds none, or a check took one, it is not looked at again in this host.
 */
export class StoredAnswerGate {
  private asked = false;
  /** The last answer came from disk: nothing to write, and a program to build after it. */
  fromDisk = false;

  /** The stored answer `look` finds holding (undefined: none), once per host; null when there is none to give. */
  take(keep: boolean, look: () => unknown): unknown {
    if (this.asked) return null;
    const found = look();
    if (!keep || found === undefined) this.asked = true;
    if (found === undefined) return null;
    if (!keep) this.fromDisk = true;
    return found;
  }

  /** After an answer from disk, once: build the program for the checks that follow. */
  afterAnswer(build: () => void): void {
    if (!this.fromDisk) return;
    this.fromDisk = false;
    build();
  }
}

/** How long a writer trusts its last eviction's total before walking the cache base again. */
const EVICT_EVERY_MS = 60_000;
const MAGIC = "signalint-ts-state 1";
const STATE_DIR = "tsc-state";
const SUFFIX = ".state";
/**
 * Node's compiled code of the project's compiler, kept by its warm hosts (warm-host.ts) in the project's cache
 * directory: counted in the bound and removed with the project's state.
 */
export const COMPILE_CACHE_DIR = "node-compile-cache";

interface Header {
  signalint: string;
  typescript: string;
  key: string;
  bytes: number;
  sha256: string;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** One program's persisted build info: its file, the key it must carry, and what was last read or written. */
export class PersistedBuildInfo {
  /** The path TypeScript is told its build info lives at (never written by TypeScript: see load/save). */
  readonly buildInfoPath: string;
  private readonly file: string;
  private lastHash = "";
  /** What the last eviction by this writer left: every project's state in bytes, and this file's size then. */
  private evicted: { total: number; bytes: number; at: number } | null = null;

  constructor(
    private readonly target: PersistTarget,
    /** Names the program (config path and kind): one state file per program. */
    name: string,
    private readonly typescriptVersion: string,
  ) {
    const base = join(target.dir, STATE_DIR, sha256(name).slice(0, 24));
    this.buildInfoPath = `${base}.tsbuildinfo`;
    this.file = `${base}${SUFFIX}`;
  }

  /**
   * The stored build info for a program whose key is `key`; null when there is none or it is not to be trusted
   * (`notice` then says why in one line when it is damaged or truncated; another version's is ignored silently).
   */
  load(key: string): { text: string | null; notice?: string } {
    let raw: string;
    try {
      raw = readFileSync(this.file, "utf8");
    } catch {
      // No stored file (or unreadable): nothing to load.
      return { text: null };
    }
    const newline = raw.indexOf("\n");
    const header = newline > 0 ? parseHeader(raw.slice(0, newline)) : null;
    const payload = newline > 0 ? raw.slice(newline + 1) : "";
    // Another Signalint or TypeScript (an upgrade) or another key (the config's options changed) is simply not this
    // program's state: ignored silently, as tsc ignores build info of another version. Damage is said.
    const why = !header
      ? "damaged header"
      : header.signalint !== this.target.version || header.typescript !== this.typescriptVersion || header.key !== key
        ? ""
        : Buffer.byteLength(payload) !== header.bytes
          ? "truncated"
          : sha256(payload) !== header.sha256
            ? "checksum mismatch"
            : null;
    if (why === null) {
      this.lastHash = header?.sha256 ?? "";
      touch(this.file);
      return { text: payload };
    }
    return why ? { text: null, notice: `persisted TypeScript state ${this.file} ignored (${why}); building afresh` } : { text: null };
  }

  /** Mark the state used now, unchanged (eviction keeps the most recently used projects). */
  touch(): void {
    touch(this.file);
  }

  /** Write `text` (build info) for `key` atomically; unchanged state only refreshes its use time. Then evict. */
  save(key: string, text: string): void {
    const hash = sha256(text);
    if (hash === this.lastHash) return this.touch();
    const header: Header = { signalint: this.target.version, typescript: this.typescriptVersion, key, bytes: Buffer.byteLength(text), sha256: hash };
    mkdirSync(dirname(this.file), { recursive: true });
    const temp = `${this.file}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      writeFileSync(temp, `${MAGIC} ${JSON.stringify(header)}\n${text}`);
      renameSync(temp, this.file);
    } finally {
      rmSync(temp, { force: true });
    }
    this.lastHash = hash;
    // Walking every project's state (thousands of cache directories on a long-used machine: ~40 ms) is needed only
    // when this file can have pushed the total over the bound — its first write, growth past what was left — or
    // other writers' growth may have (at most a minute ago): not after every incremental check.
    const bytes = Buffer.byteLength(text);
    const last = this.evicted;
    if (last && last.total + bytes - last.bytes <= this.target.maxBytes && Date.now() - last.at < EVICT_EVERY_MS) return;
    this.evicted = { total: evictPersisted(this.target, this.file), bytes, at: Date.now() };
  }
}

function parseHeader(line: string): Header | null {
  if (!line.startsWith(`${MAGIC} `)) return null;
  try {
    const header = JSON.parse(line.slice(MAGIC.length + 1)) as Partial<Header>;
    const ok =
      typeof header.signalint === "string" &&
      typeof header.typescript === "string" &&
      typeof header.key === "string" &&
      typeof header.bytes === "number" &&
      typeof header.sha256 === "string";
    return ok ? (header as Header) : null;
  } catch {
    // A crash-truncated or foreign file: no header.
    return null;
  }
}

/** Mark a state file used now (eviction keeps the most recently used projects). */
function touch(file: string): void {
  const now = new Date();
  try {
    utimesSync(file, now, now);
  } catch {
    // gone meanwhile: nothing to keep
  }
}

type Entry = { path: string; bytes: number; used: number };

/** Every file of Node's compiled code in one project cache directory (one directory per Node version). */
function compiledFiles(projectDir: string): Entry[] {
  const dir = join(projectDir, COMPILE_CACHE_DIR);
  try {
    return readdirSync(dir, { recursive: true }).flatMap((name) => {
      const info = statSync(join(dir, String(name)));
      return info.isFile() ? [{ path: join(dir, String(name)), bytes: info.size, used: info.mtimeMs }] : [];
    });
  } catch {
    // No directory (or unreadable): nothing stored there.
    return [];
  }
}

/** Every state file of one project cache directory (and stale temp files, which are removed). */
function stateFiles(projectDir: string): Entry[] {
  const dir = join(projectDir, STATE_DIR);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    // No directory (or unreadable): nothing stored there.
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    try {
      const info = statSync(path);
      // A writer that died between write and rename left this: after an hour it is nobody's.
      if (name.endsWith(".tmp") && Date.now() - info.mtimeMs > 3_600_000) rmSync(path, { force: true });
      return name.endsWith(SUFFIX) ? [{ path, bytes: info.size, used: info.mtimeMs }] : [];
    } catch {
      // Removed by another process meanwhile: not counted.
      return [];
    }
  });
}

/**
 * Keep the persisted state of every project under the bound: whole projects are removed, least recently used first
 * (a project's use time is its newest state file's), never the one holding `keep`. The total left, in bytes.
 */
export function evictPersisted(target: PersistTarget, keep: string): number {
  let projects: string[] = [target.dir];
  if (target.evictBase) {
    try {
      projects = readdirSync(target.evictBase).map((name) => join(target.evictBase as string, name));
    } catch {
      // No base directory (or unreadable): only this target is evicted.
      projects = [target.dir];
    }
  }
  const groups = projects.map((dir) => {
    const states = stateFiles(dir);
    // A project's use time is its state's; its compiled code counts in the bound and goes with it.
    const files = [...states, ...compiledFiles(dir)];
    return { files, bytes: files.reduce((sum, file) => sum + file.bytes, 0), used: Math.max(0, ...states.map((file) => file.used)) };
  });
  let total = groups.reduce((sum, group) => sum + group.bytes, 0);
  const byAge = groups.filter((group) => group.files.length).sort((a, b) => a.used - b.used);
  for (const group of byAge) {
    if (total <= target.maxBytes) return total;
    // The project just written is used most recently, so it comes last; its file just written always stays.
    const files = group.files.some((file) => file.path === keep) ? group.files.filter((file) => file.path !== keep) : group.files;
    for (const file of files) {
      rmSync(file.path, { force: true });
      total -= file.bytes;
    }
  }
  return total;
}
