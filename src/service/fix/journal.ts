import { dirname, join } from "node:path";
import { ifMissing, SignalintError } from "../../core/errors.ts";
import type { Runtime } from "../../runtime/types.ts";
import { userKey } from "../project/user-state.ts";
import { backupPathOf, JournalRejectedError, tagJournal, tempPathOf, type Journal, type JournalEntry, type UntaggedJournal } from "./journal-plan.ts";

/** A file to write: its project-relative path, real absolute path, and both contents. */
export interface JournalWrite {
  file: string;
  target: string;
  original: string;
  patched: string;
}

/** What a rollback did: files it left as they were because they were edited after the interrupted fix. */
export interface RollbackOutcome {
  kept: string[];
}

/**
 * A test hook, read from SIGNALINT_TEST_JOURNAL ("pause:<stage>" or "fail:<stage>"): at that stage the server names it
 * on stderr and blocks (so a test can SIGKILL it at an exact instant) or throws (to exercise rollback). Stages:
 * journal-written, temp-<i>, committing, renamed-<i>, committed.
 */
function stageHook(runtime: Runtime): (stage: string) => void {
  const spec = runtime.env("SIGNALINT_TEST_JOURNAL");
  if (!spec) return () => {};
  const [action, at] = [spec.slice(0, spec.indexOf(":")), spec.slice(spec.indexOf(":") + 1)];
  return (stage) => {
    if (stage !== at) return;
    runtime.writeStderr(`signalint-test-journal: ${action} ${stage}\n`);
    if (action === "fail") throw new Error(`injected failure at ${stage}`);
    // Block the whole process (no further I/O) until the test kills it; give up after a minute.
    if (action === "pause") Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000);
  };
}

/** A plan's file name suffix: JSON inside, no `.json` name (the user's own linters and formatters would take it). */
export const PLAN = ".journal";

/**
 * Journals live in `<journalDir>/<transactionId>.journal` with backups in `<journalDir>/<transactionId>/`; recovery
 * (journal-recovery.ts) reads them back.
 */
export class FileJournal {
  /** `<stateDir>/journal`. */
  readonly dir: string;
  private key: Promise<string> | null = null;

  constructor(
    readonly runtime: Runtime,
    stateDir: string,
    /** This session holds the lock of the state directory the journals go to (see Journal's writerOwned). */
    private readonly owned: boolean,
  ) {
    this.dir = join(stateDir, "journal");
  }

  /** This user's integrity key, read once. */
  integrityKey(): Promise<string> {
    this.key ??= userKey(this.runtime);
    return this.key;
  }

  private async save(journal: UntaggedJournal): Promise<void> {
    const path = join(this.dir, `${journal.transactionId}${PLAN}`);
    // The writer's pid in the temp's name: a recovery removes a half-written plan only once its writer is gone.
    const temp = `${path}.${this.runtime.pid}.tmp`;
    await this.runtime.writeFileDurable(temp, JSON.stringify(tagJournal(this.runtime, await this.integrityKey(), journal)));
    await this.runtime.rename(temp, path);
    await this.runtime.syncDir(this.dir);
  }

  /** Remove a journal: backups first, the plan last (a plan without backups is only ever one that needs none). */
  async forget(transactionId: string): Promise<void> {
    await this.runtime.removeFile(join(this.dir, transactionId));
    await this.runtime.removeFile(join(this.dir, `${transactionId}${PLAN}`));
  }

  /**
   * Write every file or none: record the plan, write backups and temps (fsynced), mark committing, rename each temp
   * over its target, mark committed. Any failure rolls every file back to its original before rethrowing.
   */
  async write(transactionId: string, writes: readonly JournalWrite[], realRoot: string): Promise<void> {
    const hook = stageHook(this.runtime);
    const { runtime } = this;
    const journal: UntaggedJournal = {
      format: 2,
      transactionId,
      realRoot,
      writerPid: runtime.pid,
      writerOwned: this.owned,
      state: "preparing",
      entries: writes.map((write, index) => ({
        file: write.file,
        target: write.target,
        backup: backupPathOf(this.dir, transactionId, index),
        originalHash: runtime.sha256(write.original),
        patchedHash: runtime.sha256(write.patched),
        temp: tempPathOf(write.target, transactionId),
      })),
    };
    try {
      await runtime.mkdirp(this.dir);
      // The plan before its backup directory: a backup directory without a plan is then never a live writer's.
      await this.save(journal);
      await runtime.mkdirp(join(this.dir, transactionId));
      hook("journal-written");
      for (const [index, write] of writes.entries()) {
        const entry = journal.entries[index] as JournalEntry;
        await runtime.writeFileDurable(entry.backup, write.original);
        await runtime.writeFileDurable(entry.temp, write.patched);
        // The renamed file keeps the original's permissions (an executable script stays executable).
        await runtime.copyMode(entry.target, entry.temp);
        hook(`temp-${index}`);
      }
      await this.save({ ...journal, state: "committing" });
      journal.state = "committing";
      hook("committing");
      for (const [index, entry] of journal.entries.entries()) {
        await runtime.rename(entry.temp, entry.target);
        hook(`renamed-${index}`);
      }
      for (const dir of new Set(journal.entries.map((entry) => dirname(entry.target)))) await runtime.syncDir(dir);
      await this.save({ ...journal, state: "committed" });
      hook("committed");
    } catch (error) {
      await this.rollbackAfterFailure(journal, error as Error);
    }
    // Best effort: a committed journal left behind is recognised as committed at the next start.
    await this.forget(transactionId).catch(() => {});
  }

  /** An apply that failed rolls back at once; a rollback that fails too keeps the journal for the next start. */
  private async rollbackAfterFailure(journal: UntaggedJournal, error: Error): Promise<never> {
    let kept: string[];
    try {
      ({ kept } = await this.rollback(journal));
    } catch (failure) {
      throw new SignalintError(
        "apply_failed",
        `The write failed (${error.message}) and so did its rollback (${(failure as Error).message}); the next start rolls back again`,
      );
    }
    // A file changed by someone else between its rename and the rollback is theirs now: said, never overwritten.
    if (kept.length)
      throw new SignalintError(
        "apply_failed",
        `The write failed (${error.message}); every file was rolled back but ${kept.join(", ")}, edited meanwhile and left as is`,
      );
    throw new SignalintError("apply_failed", `Nothing was changed: the write failed and every file was rolled back (${error.message})`);
  }

  /**
   * Put every file of a journal back to its original and delete the journal (kept if the rollback itself fails). A
   * file is restored only while it holds exactly what the fix wrote: one edited since (after a crash) is left as it is
   * and named in `kept`. Backups are checked before any file is touched (JournalRejectedError when one is damaged).
   */
  async rollback(journal: UntaggedJournal): Promise<RollbackOutcome> {
    // Decide everything first, touch nothing until every backup needed is known good.
    const actions = await Promise.all(journal.entries.map((entry) => this.actionFor(entry, journal.state)));
    const restores = journal.entries.filter((_, index) => actions[index] === "restore");
    const originals = await Promise.all(restores.map((entry) => this.backupOf(entry)));
    for (const [index, entry] of journal.entries.entries()) {
      // A restore interrupted by a crash leaves its own temp.
      await this.runtime.removeFile(restoreTemp(entry));
      if (actions[index] === "drop-temp") await this.runtime.removeFile(entry.temp);
    }
    for (const [index, entry] of restores.entries()) {
      const restore = restoreTemp(entry);
      await this.runtime.writeFileDurable(restore, originals[index] as string);
      await this.runtime.copyMode(entry.target, restore);
      await this.runtime.rename(restore, entry.target);
    }
    for (const dir of new Set(restores.map((entry) => dirname(entry.target)))) await this.runtime.syncDir(dir);
    await this.forget(journal.transactionId);
    return { kept: journal.entries.filter((_, index) => actions[index] === "keep").map((entry) => entry.file) };
  }

  /** What a rollback does to one file. */
  private async actionFor(entry: JournalEntry, state: Journal["state"]): Promise<"drop-temp" | "restore" | "keep" | "none"> {
    // Its temp still there: this file was never renamed, so the target is not ours (a non-file there is not ours either).
    const temp = await this.runtime.lstat(entry.temp);
    if (temp) return temp.isFile ? "drop-temp" : "none";
    if (state === "preparing") return "none";
    const holds = await this.holds(entry);
    return holds === "patched" ? "restore" : holds === "edited" ? "keep" : "none";
  }

  /** What a renamed target holds now: the original, what the fix wrote, or something else (edited, removed, a link). */
  private async holds(entry: JournalEntry): Promise<"original" | "patched" | "edited"> {
    const info = await this.runtime.lstat(entry.target);
    // The fix wrote a regular file: anything else there was put there since.
    if (!info?.isFile) return "edited";
    const hash = this.runtime.sha256(await this.runtime.readText(entry.target));
    return hash === entry.originalHash ? "original" : hash === entry.patchedHash ? "patched" : "edited";
  }

  /** A backup's content, checked against the original's hash. */
  private async backupOf(entry: JournalEntry): Promise<string> {
    const original = await this.runtime.readText(entry.backup).catch(ifMissing(null));
    if (original === null || this.runtime.sha256(original) !== entry.originalHash)
      throw new JournalRejectedError("damaged_backup", `the backup of ${entry.file} is ${original === null ? "missing" : "damaged"}`);
    return original;
  }
}

/** The temp a restore writes beside its target. */
function restoreTemp(entry: JournalEntry): string {
  return `${entry.temp.slice(0, -".tmp".length)}.restore.tmp`;
}
