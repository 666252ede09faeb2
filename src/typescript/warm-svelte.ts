// A warm svelte-check (issue 33): the project's own svelte-check checker kept in a warm host between checks. It is
// told what changed as `svelte-check --watch` tells it (the changed file's text, upsertDocument), and answers in the
// command line's own machine-verbose output, written by svelte-check's own writer, so the server parses it as it parses
// a run of the command line. Freshness is this host's, not svelte-check's: every file-system question the checker's
// TypeScript asked is recorded and asked again at the next check (the watch's hint narrows them, as for warm
// programs); a changed source text in the tree is handed over, anything else TypeScript read (a file created or
// deleted, a config, a package) builds the checker again, and what svelte-check reads without TypeScript (its configs,
// loaded by import, what they import, the styles its preprocessors read), a package install or a watch that lost track
// send the check to the command line and this host away.
import { HostRestartError } from "./host-mode.ts";
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import type * as TS from "typescript";
import { fileStamp, isRacyStamp } from "../engines/file-stamp.ts";
import { recheckFilter, type ChangeHint } from "./change-hint.ts";
import { hashText } from "./host-questions.ts";
import {
  askAgain,
  type Checker,
  checkerFile,
  type Kind,
  loadParts,
  type Recorder,
  recorderOf,
  type SvelteCheckParts,
  SvelteLayoutError,
} from "./svelte-parts.ts";

export { SvelteLayoutError } from "./svelte-parts.ts";

/** A source file the checker can be handed (as its watch mode hands them): a script or component. */
const SOURCE = /\.(?:svelte|d\.ts|ts|tsx|js|jsx|mjs|cjs|mts|cts)$/;

/**
 * What svelte-check may read without TypeScript: the configs it imports and what they import (scripts, JSON), the
 * styles its preprocessors read. A changed one it did not read through TypeScript cannot be asked again.
 */
const OTHER_INPUT = /\.(?:[cm]?[jt]sx?|json[c5]?|svelte|s?css|sass|less|styl(?:us)?|pcss|postcss)$/i;

/** Configs svelte-check loads by import (@sveltejs/load-config): stamped where the watch does not see them (above the root). */
const IMPORTED_CONFIGS = [
  ...["js", "cjs", "mjs", "ts", "mts"].map((ext) => `svelte.config.${ext}`),
  ...["js", "cjs", "mjs", "ts", "cts", "mts"].map((ext) => `vite.config.${ext}`),
];

/** What of the checker's own a changed component's text is pushed through (its watch mode waits a second for it instead). */
interface CheckerInternals {
  docManager?: { get?(uri: string): unknown };
  lsAndTSDocResolver?: { getOrCreateSnapshot?(document: unknown): Promise<unknown> };
}

/** One check's answer: svelte-check's machine-verbose output, and how much was reused. */
export interface SvelteAnswer {
  output: string;
  reuse: "reused" | "incremental" | "full";
  changedFiles: number;
  programFiles: number;
}

/** Thrown when this host cannot answer for what changed (an imported config, a package install): a new host must. */
export class SvelteRestartError extends HostRestartError {}

/**
 * One svelte-check program (a tsconfig checked from its directory, as the command line's `--workspace <dir> --tsconfig
 * <config>`) kept between checks.
 */
export class WarmSvelteCheck {
  private parts: SvelteCheckParts | null = null;
  private recorder: Recorder | null = null;
  private checker: Checker | null = null;
  private output = "";
  private lastSeq: number | null = null;
  private restart: string | null = null;
  /** Answers keyed `kind\0path\0extra`. */
  private readonly answers = new Map<string, string>();
  /** The files read, with their stamps before each read and their text's hash. */
  private readonly reads = new Map<string, { stamp: string | null; hash: string }>();
  private readonly configStamps = new Map<string, string>();
  /** The files the checker holds a snapshot of (`/`-separated): the only ones it takes a new text of. */
  private readonly snapshots = new Set<string>();
  private readonly realRoot: string;

  constructor(
    private readonly packageDir: string,
    private readonly tsconfig: string,
    private readonly root: string,
  ) {
    this.realRoot = realOrSelf(root);
  }

  observe(kind: Kind, path: string, answer: string, extra: string): void {
    this.answers.set(`${kind}\0${path}\0${extra}`, answer);
  }

  observeRead(path: string, stamp: string | null, text: string | undefined): void {
    this.reads.set(path, { stamp, hash: text === undefined ? "-" : hashText(text) });
  }

  /** A package install moved what the loaded modules are: only a new host loads them again. */
  invalidate(): void {
    this.restart = "packages changed (an install)";
  }

  async check(hint: ChangeHint | null): Promise<SvelteAnswer> {
    if (this.restart) throw new SvelteRestartError(this.restart);
    try {
      return await (this.checker ? this.again(hint) : this.build(hint));
    } catch (error) {
      if (error instanceof SvelteLayoutError) throw error;
      // svelte-check failing here fails on its command line too, which says so; a new host tries the next check.
      this.restart = error instanceof SvelteRestartError ? error.message : `svelte-check failed in the warm host: ${(error as Error).message}`;
      throw new SvelteRestartError(this.restart);
    }
  }

  close(): void {
    if (this.recorder?.target === this) this.recorder.target = null;
    this.checker = null;
  }

  private async again(hint: ChangeHint | null): Promise<SvelteAnswer> {
    const changedConfig = [...this.configStamps].find(([path, stamp]) => (fileStamp(path) ?? "-") !== stamp);
    if (changedConfig) throw new SvelteRestartError(`${changedConfig[0]} changed`);
    // Without the watch's account of every change since the last check, a change svelte-check reads without
    // TypeScript could go unseen.
    const recheck = hint && this.lastSeq !== null ? recheckFilter(hint, this.lastSeq) : null;
    const reported = hint && this.lastSeq !== null ? recheckFilter(hint, this.lastSeq, true) : null;
    if (!hint || !recheck || !reported) throw new SvelteRestartError("the file watch cannot say what changed since the last check");
    const listings = this.listingsNow();
    const unread = this.unexplained(hint, this.lastSeq as number, listings);
    if (unread) throw new SvelteRestartError(`${unread} changed, which svelte-check reads without TypeScript`);
    const sources = this.changedSources(recheck, reported, listings);
    this.lastSeq = hint.seq;
    if (sources === null) return this.build(hint);
    if (!sources.length) return { output: this.output, reuse: "reused", changedFiles: 0, programFiles: this.snapshots.size };
    const { URI } = this.parts as SvelteCheckParts;
    const internals = this.checker as unknown as CheckerInternals;
    for (const [path, text] of sources) {
      const uri = URI.file(path).toString();
      await (this.checker as Checker).upsertDocument({ uri, text }, false);
      // A component's new text reaches TypeScript's view of it a second later (svelte-check --watch diagnoses after
      // that second); files importing it are diagnosed first, so its view is brought up to date now, as that update does.
      if (!/\.svelte$/.test(path)) continue;
      const document = internals.docManager?.get?.(uri);
      if (document) await internals.lsAndTSDocResolver?.getOrCreateSnapshot?.(document);
    }
    this.output = await this.diagnose();
    this.stampConfigs();
    return { output: this.output, reuse: "incremental", changedFiles: sources.length, programFiles: this.snapshots.size };
  }

  private async build(hint: ChangeHint | null): Promise<SvelteAnswer> {
    this.checker = null;
    this.answers.clear();
    this.reads.clear();
    this.snapshots.clear();
    this.configStamps.clear();
    // Stamped before they are loaded: one edited while the checker loads it is changed at the next check.
    this.stampConfigs();
    // The TypeScript svelte-check loads: its system's questions are recorded before the checker is loaded.
    const ts = createRequire(checkerFile(this.packageDir))("typescript") as typeof TS;
    this.recorder = recorderOf(ts.sys);
    this.recorder.target = this;
    this.parts = loadParts(this.packageDir);
    this.lastSeq = hint?.seq ?? null;
    // As the command line builds it (ts6.js run()): no compiler warnings set, every diagnostic source, no --config.
    // The snapshots it creates are only reported (svelte-check --watch adds their directories to its watch).
    const onFileSnapshotCreated = (file: string) => this.snapshots.add(slashed(file));
    this.checker = new this.parts.SvelteCheck(dirname(this.tsconfig), { compilerWarnings: {}, tsconfig: this.tsconfig, watch: false, onFileSnapshotCreated });
    const internals = this.checker as unknown as CheckerInternals;
    if (typeof internals.docManager?.get !== "function" || typeof internals.lsAndTSDocResolver?.getOrCreateSnapshot !== "function")
      throw new SvelteLayoutError("its checker keeps its documents where this host does not look");
    this.output = await this.diagnose();
    this.stampConfigs();
    return { output: this.output, reuse: "full", changedFiles: this.snapshots.size, programFiles: this.snapshots.size };
  }

  /** The checker's diagnostics through svelte-check's own machine-verbose writer, as its command line prints them. */
  private async diagnose(): Promise<string> {
    const parts = this.parts as SvelteCheckParts;
    const diagnostics = await (this.checker as Checker).getDiagnostics();
    let output = "";
    const writer = parts.instantiateWriter({ outputFormat: "machine-verbose", threshold: "warning", watch: false, preserveWatchOutput: false });
    writer.stream = {
      write: (text: string) => {
        output += text;
        return true;
      },
    };
    parts.writeDiagnostics(parts.URI.file(dirname(this.tsconfig)), writer, diagnostics);
    return output;
  }

  /** The imported configs the config's and each component's directory (or one above) may hold, not stamped yet. */
  private stampConfigs(): void {
    const dirs = new Set<string>();
    for (const path of [this.tsconfig, ...[...this.reads.keys()].filter((file) => file.endsWith(".svelte"))]) {
      for (let dir = dirname(path); !dirs.has(dir); dir = dirname(dir)) {
        dirs.add(dir);
        if (dirname(dir) === dir) break;
      }
    }
    for (const dir of dirs)
      for (const name of IMPORTED_CONFIGS)
        if (!this.configStamps.has(join(dir, name))) this.configStamps.set(join(dir, name), fileStamp(join(dir, name)) ?? "-");
  }

  /** Each recorded listing (readDirectory) asked again: every listing is, whatever the hint (symlinked directories list unseen files). */
  private listingsNow(): Map<string, string> {
    const { original } = this.recorder as Recorder;
    const now = new Map<string, string>();
    for (const key of this.answers.keys()) {
      const [kind, path, extra] = key.split("\0") as [Kind, string, string];
      if (kind === "l") now.set(key, askAgain(original, kind, path, extra));
    }
    return now;
  }

  /**
   * A path the watch saw change since the last check that svelte-check may read without TypeScript (OTHER_INPUT) and
   * that its TypeScript neither read nor lists (now or at the last check): the first such, or null.
   */
  private unexplained(hint: ChangeHint, lastSeq: number, listings: Map<string, string>): string | null {
    const norm = (path: string) => (hint.caseSensitive ? slashed(path) : slashed(path).toLowerCase());
    const known = new Set([...this.reads.keys()].map(norm));
    for (const [key, now] of listings)
      for (const answer of [this.answers.get(key) ?? "", now]) for (const file of answer.split("\n")) if (file) known.add(norm(file));
    for (const [path, seq] of hint.changes) {
      if (seq <= lastSeq || !OTHER_INPUT.test(path) || known.has(norm(path))) continue;
      if (
        norm(relative(this.root, path))
          .split("/")
          .some((segment) => segment === "node_modules" || segment === ".git")
      )
        continue;
      return relative(this.root, path) || path;
    }
    return null;
  }

  /**
   * The source files in the tree whose text changed since the last check, with their new text; null when anything
   * else the checker read changed (the checker is then built again). `recheck` (the watch's hint) leaves out what it
   * vouches for; what it `reported` written is read again whatever its stamp says.
   */
  private changedSources(recheck: (path: string) => boolean, reported: (path: string) => boolean, listings: Map<string, string>): [string, string][] | null {
    const { original } = this.recorder as Recorder;
    for (const [key, answer] of this.answers) {
      const [kind, path, extra] = key.split("\0") as [Kind, string, string];
      const now = kind === "l" ? listings.get(key) : recheck(path) ? askAgain(original, kind, path, extra) : answer;
      if (now !== answer) return null;
    }
    const sources: [string, string][] = [];
    for (const [path, read] of this.reads) {
      if (!recheck(path)) continue;
      const stamp = fileStamp(path);
      if (stamp !== null && stamp === read.stamp && !isRacyStamp(stamp) && !reported(path)) continue;
      const text = original.readFile(path);
      const hash = text === undefined ? "-" : hashText(text);
      if (hash === read.hash) {
        this.reads.set(path, { stamp, hash });
        continue;
      }
      // Handed over only where the checker takes it (upsertDocument ignores a file it holds no snapshot of).
      if (text === undefined || !SOURCE.test(path) || !this.inTree(path) || !this.snapshots.has(slashed(path))) return null;
      this.reads.set(path, { stamp, hash });
      sources.push([path, text]);
    }
    return sources;
  }

  /** A file of the project's own (in the root, through links too, and not in a node_modules directory). */
  private inTree(path: string): boolean {
    return [path, realOrSelf(path)].every((file) => {
      const inside = [this.root, this.realRoot]
        .map((root) => relative(root, file))
        .find((rel) => rel && !rel.startsWith("..") && !/^[\\/]|^[A-Za-z]:/.test(rel));
      return inside !== undefined && !slashed(inside).split("/").includes("node_modules");
    });
  }
}

/** A path's real path, or the path itself when it has none (gone, unreadable). */
function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // Gone (or unreadable): its own path is all there is to judge.
    return path;
  }
}

function slashed(path: string): string {
  return path.replaceAll("\\", "/");
}
