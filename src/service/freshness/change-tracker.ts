// The freshness room: what "fresh" means for each kind of input a check's answer rests on, and which stamp decides it.
// One rule under all of them: an input is fresh only when something proves it unchanged; anything unproven is read
// again. The stamps this room owns are decided in its files; the rest are named here with where they are decided.
// - A source file in the tree: the watch recorded no change to it, behind a fence that arrived (this file). No watch,
//   a broken one, a fence that did not arrive or too many changes: every file is re-stat-ed (no hint).
// - A file's content (the lint cache's per-file keys): a content hash, re-read when size or mtime changed or the watch
//   named the file (content-hasher.ts).
// - A linter's configuration: the hashes of its adapter's `configFiles` in every directory from the file up to the
//   filesystem root, the root's lockfiles, .git/info/exclude and what those extend, import or name (a deno.json's
//   local lint plugins, import map and lockfile) (config-inputs.ts); with the engine's version, its argv and the
//   environment's fingerprint they make the lint cache's key
//   (lint/lint-runner.ts `runCachedLinter`, which composes it; lint/lint-cache.ts stores by it).
// - A tsconfig and the files it lists: the listing is kept while the size and mtime of the config and of the configs it
//   extends by relative path are equal (tsconfig-stamp.ts); a file it does not name is listed again once per check
//   (tsc/tsc-coverage.ts). The program's own files are the warm program's (next).
// - A warm TypeScript program: every file-system question its compiler asked, asked again and compared, except the
//   paths the watch vouches for (typescript/host-questions.ts, in the host process: below this room, so not moved).
// - package.json and its scripts, workspaces: read again by every check that uses them (project/workspace.ts
//   `readManifest`: which programs tsc runs, which linter, ESLint's scope); nothing is kept between checks.
// - Engine versions in node_modules or on PATH: resolved again by every check (engines/resolve.ts through
//   check/quiet-check.ts `resolveEnabled`); the resolved package and version are part of the lint cache's key and of a
//   quiet answer's identity.
// - A framework's generated config (.svelte-kit/tsconfig.json, .nuxt/…): stat-ed by every check that would run its
//   program (engines/generated-configs.ts `missingGenerated`, from tsc/framework-runs.ts).
// - What the watch cannot see (node_modules, .git, outside the root): exact file stamps — nanosecond mtime, size,
//   inode, and "racy" within a second of a write (engines/file-stamp.ts); a whole quiet answer is reused only when
//   the watch saw no change after its fence and every such stamp is equal (quiet-index.ts).
import { basename, join, sep } from "node:path";
import { FsError } from "../../core/errors.ts";
import type { DirEntry, Runtime, TreeWatch } from "../../runtime/types.ts";
import type { ChangeHint } from "../../typescript/change-hint.ts";

/** Changes kept at most; more between two checks (a checkout, an install, a lost-events overflow) mean "re-stat all". */
export const MAX_CHANGES = 4096;
/** How long a fence waits for its own event before the watch is declared broken. */
export const FENCE_TIMEOUT_MS = 2000;
/** Watches started at most per server: a watch that keeps breaking (limits) is given up for plain re-stats. */
const MAX_STARTS = 3;
/** Directories never watched: their files are re-stated by every check that reads them. */
const UNWATCHED = new Set(["node_modules", ".git"]);

/** A path the watch of `root` cannot see: outside the root, or in a node_modules or .git directory of it. */
export function unwatched(root: string, path: string): boolean {
  if (!path.startsWith(`${root}${sep}`)) return true;
  return path
    .slice(root.length)
    .split(/[\\/]/)
    .some((segment) => UNWATCHED.has(segment));
}

/**
 * Watches the project tree so a check where nothing changed re-asks only what the watch cannot see. Truth first:
 * before a check uses a hint, `fence()` writes a marker file into the state directory's `fence/` (outside the tree:
 * nothing is written into the project) and waits for the watch to report it; the tree and the fence directory are
 * watched in one ordered stream of events (Runtime.watchTree's fenceDir), so every change made before the check
 * started has been recorded by then. Anything the watch cannot vouch for — no watch on this runtime, not started yet, an error, a fence that
 * does not arrive, more changes than kept — gives programs no hint (null), and they re-stat everything.
 */
export class ChangeTracker {
  private watch: TreeWatch | null = null;
  private state: "off" | "starting" | "on" = "off";
  private starts = 0;
  private seq = 0;
  private since = 0;
  private changes: [string, number][] = [];
  /** Symlinks and unwatched directories in the tree (their targets and contents change unseen). */
  private readonly uncovered = new Set<string>();
  /** Fences waiting for their marker's event: resolved true when it arrives, false when it cannot prove anything. */
  private readonly waiting = new Map<string, (arrived: boolean) => void>();
  /** Classifications of changed paths (symlink? new directory?) still running: a fence waits for them. */
  private pending: Promise<void> = Promise.resolve();
  private fences = 0;
  private readonly id: string;
  /** Where fence markers are written: in the private state directory, never in the project tree. */
  private readonly fenceDir: string;
  /** How many checks got a hint (tests assert the watch really served them). */
  hintsGiven = 0;
  private scheduled = false;
  private readonly readyWaiters: (() => void)[] = [];

  constructor(
    private readonly runtime: Runtime,
    private readonly root: string,
    private readonly stateDir: string,
  ) {
    this.id = runtime.sha256(`${Date.now()}:${Math.random()}`).slice(0, 8);
    this.fenceDir = join(stateDir, "fence");
  }

  /**
   * Start watching once the current check is over (a one-shot CLI check closes first and never pays for it), or when a
   * long-lived server opens; again after a failure, a few times. Hints are null until the tree has been walked.
   */
  startSoon(): void {
    if (this.state !== "off" || this.starts >= MAX_STARTS || this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => {
      this.scheduled = false;
      this.start();
      if (this.state === "off") this.settle();
    }, 0);
  }

  /** Resolves once a start asked for is over: the tree is watched and walked, or the watch is not to be. */
  ready(): Promise<void> {
    if (this.state === "on" || (this.state === "off" && !this.scheduled)) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** ready(), or false once `ms` have passed first (a walk of a huge tree goes on; this check goes without a hint). */
  private async readyWithin(ms: number): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    });
    return Promise.race([this.ready().then(() => true as const), late]).finally(() => clearTimeout(timer));
  }

  private settle(): void {
    for (const resolve of this.readyWaiters.splice(0)) resolve();
  }

  private start(): void {
    if (this.state !== "off" || this.starts >= MAX_STARTS) return;
    this.starts++;
    this.state = "starting";
    // The fence directory must exist before it is watched; one that cannot be made leaves the tree unwatched.
    this.runtime.mkdirp(this.fenceDir).then(
      () => this.begin(),
      () => this.giveUp(),
    );
  }

  /** No watch is to be had here (the runtime or platform has none, or no fence can be ordered with it). */
  private giveUp(): void {
    if (this.state === "starting") this.state = "off";
    this.starts = MAX_STARTS;
    this.settle();
  }

  private begin(): void {
    if (this.state !== "starting") return this.settle(); // closed meanwhile
    const stateInTree = this.stateDir.startsWith(`${this.root}${sep}`);
    this.watch = this.runtime.watchTree(this.root, {
      skip: (dir) => UNWATCHED.has(basename(dir)) || dir.startsWith(`${this.stateDir}${sep}`),
      onChange: (path) => this.changed(path),
      onError: (reason) => this.fail(reason),
      fenceDir: this.fenceDir,
    });
    if (!this.watch) return this.giveUp();
    const watch = this.watch;
    // Nothing was recorded while no watch ran: no program may take a hint across that gap.
    this.forget();
    this.uncovered.clear();
    // A state directory the user put inside the tree (SIGNALINT_STATE_DIR) is not watched as part of it.
    if (stateInTree) this.uncovered.add(this.stateDir);
    this.walk(this.root).then(() => {
      if (this.watch === watch && this.state === "starting") this.state = "on";
      this.settle();
    });
  }

  /** Record symlinks and unwatched directories at or under `dir`. */
  private async walk(dir: string): Promise<void> {
    let entries: DirEntry[];
    try {
      entries = await this.runtime.readDir(dir);
    } catch (error) {
      // Gone meanwhile: nothing to walk. Unreadable: what is in it is unseen, so it is asked again at every check.
      if (!(error instanceof FsError && error.kind === "not_found")) this.uncovered.add(dir);
      return;
    }
    await Promise.all(
      entries.map(async (entry) => {
        const path = join(dir, entry.name);
        if (entry.isSymlink || (entry.isDirectory && UNWATCHED.has(entry.name))) this.uncovered.add(path);
        else if (entry.isDirectory && path !== this.stateDir) await this.walk(path);
      }),
    );
  }

  private changed(path: string): void {
    const waiter = this.waiting.get(path);
    if (waiter) return waiter(true);
    // The state directory itself created or removed (the check just recreated it): a marker written into it before
    // its new watch existed never reports; that check goes without a hint.
    if (path === this.stateDir || path === this.fenceDir) for (const release of this.waiting.values()) release(false);
    if (path === this.stateDir || path.startsWith(`${this.stateDir}${sep}`)) return;
    this.changes.push([path, ++this.seq]);
    if (this.changes.length > MAX_CHANGES) this.forget();
    // A symlink or a directory that appeared: what the watch cannot see in it is added before the next fence passes.
    this.pending = this.pending.then(async () => {
      const info = await this.runtime.lstat(path).catch(() => undefined);
      // Unknown (unreadable) counts as unseen.
      if (info === undefined || info?.isSymlink || (info?.isDirectory && UNWATCHED.has(basename(path)))) this.uncovered.add(path);
      else if (info?.isDirectory) await this.walk(path);
    });
  }

  /** Drop the recorded changes: every program re-stats everything once. */
  private forget(): void {
    this.changes = [];
    this.since = ++this.seq;
  }

  private fail(reason: string): void {
    this.watch?.close();
    this.watch = null;
    this.state = "off";
    this.forget();
    for (const release of this.waiting.values()) release(false);
    this.runtime.writeStderr(`signalint: file watch stopped (${reason}); checks re-stat every file\n`);
  }

  /**
   * Make sure every change made before this call has been recorded: write a marker into the state directory and
   * wait for the watch to report it. False when the watch cannot promise that (then the hint is null).
   */
  async fence(): Promise<boolean> {
    // A watch being started (a long-lived server's, started with it) is waited for, briefly: the first check's answer
    // can then be kept for a quiet check, and its programs take hints from the next check on.
    if (this.state === "starting" || this.scheduled) await this.readyWithin(FENCE_TIMEOUT_MS);
    if (this.state !== "on") return false;
    const marker = join(this.fenceDir, `fence-${this.id}-${++this.fences}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settle: (arrived: boolean | "timeout") => void = () => {};
    const outcome = new Promise<boolean | "timeout">((resolve) => {
      settle = resolve;
      this.waiting.set(marker, resolve);
      // Give up one loop turn after the timeout, so an event that waited behind a blocked thread is read first.
      timer = setTimeout(() => setTimeout(() => resolve("timeout"), 0), FENCE_TIMEOUT_MS);
    });
    // A marker that cannot be written (the state directory removed meanwhile) proves nothing, and the watch of the
    // fence directory is gone with it: a new watch starts after this check.
    let unwritable = false;
    await this.runtime.appendFile(marker, "").catch(() => {
      unwritable = true;
      settle(false);
    });
    const arrived = await outcome;
    clearTimeout(timer);
    this.waiting.delete(marker);
    await this.pending;
    // Best effort: a leftover marker is an empty file in the fence directory, ignored.
    await this.runtime.removeFile(marker).catch(() => {});
    if (unwritable && this.state === "on") this.fail("the state directory's fence directory is gone");
    // A watch that no longer reports what happens in the tree is broken: the next check starts a new one.
    if (arrived === "timeout" && this.state === "on") this.fail("a fence's marker was not reported");
    return arrived === true && this.state === "on";
  }

  /** Everything recorded, for a program to pick what changed since it last looked; null when not watching. */
  hint(): ChangeHint | null {
    if (this.state !== "on") return null;
    this.hintsGiven++;
    return {
      seq: this.seq,
      since: this.since,
      changes: this.changes,
      root: this.root,
      uncovered: [...this.uncovered],
      caseSensitive: this.runtime.platform === "linux",
    };
  }

  /** "on" once the tree is watched and walked; "off" without a watch (none on this runtime, stopped, or closed). */
  get status(): "off" | "starting" | "on" {
    return this.state;
  }

  close(): void {
    this.watch?.close();
    this.watch = null;
    this.state = "off";
    this.starts = MAX_STARTS;
  }
}
