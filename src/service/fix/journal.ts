import { basename, dirname, join } from "node:path";
import { ifMissing, SignalintError } from "../../core/errors.ts";
import type { Runtime } from "../../runtime/types.ts";
import { setAsideUnless } from "../project/state-kinds.ts";

/** One file of a journaled write. */
interface JournalEntry {
  file: string;
  /** Real absolute path written (symlinks resolved, so a link is never replaced by a file). */
  target: string;
  /** Patched content, next to the target (same filesystem, so the rename is atomic). */
  temp: string;
  /** Original content, in the state directory. */
  backup: string;
  originalHash: string;
}

/** preparing: temps and backups being written, no target touched; committing: renames under way; committed: done. */
type JournalState = "preparing" | "committing" | "committed";

interface Journal {
  transactionId: string;
  state: JournalState;
  entries: JournalEntry[];
}

/** A file to write: its project-relative path, real absolute path, and both contents. */
export interface JournalWrite {
  file: string;
  target: string;
  original: string;
  patched: string;
}

const TX_ID = /^tx-[0-9a-f]{16}$/;

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

/** Journals live in `<stateDir>/journal/<transactionId>.journal` with backups in `<stateDir>/journal/<transactionId>/`. */
/** A journal file's plan, or null when it holds none (never completely written: the crash came before). */
function parseJournal(text: string | null): Journal | null {
  if (text === null) return null;
  try {
    return JSON.parse(text) as Journal;
  } catch {
    return null;
  }
}

/** A plan's file name suffix: JSON inside, no `.json` name (the user's own linters and formatters would take it). */
const PLAN = ".journal";
/** The suffix earlier versions wrote. */
const LEGACY_PLAN = ".json";

export class FileJournal {
  private readonly dir: string;

  constructor(
    private readonly runtime: Runtime,
    stateDir: string,
  ) {
    this.dir = join(stateDir, "journal");
  }

  private async save(journal: Journal): Promise<void> {
    const path = join(this.dir, `${journal.transactionId}${PLAN}`);
    const temp = `${path}.tmp`;
    await this.runtime.writeFileDurable(temp, JSON.stringify(journal));
    await this.runtime.rename(temp, path);
    await this.runtime.syncDir(this.dir);
  }

  private async forget(transactionId: string): Promise<void> {
    await this.runtime.removeFile(join(this.dir, transactionId));
    for (const suffix of [PLAN, LEGACY_PLAN]) {
      await this.runtime.removeFile(join(this.dir, `${transactionId}${suffix}`));
      await this.runtime.removeFile(join(this.dir, `${transactionId}${suffix}.tmp`));
    }
  }

  /**
   * Write every file or none: record the plan, write backups and temps (fsynced), mark committing, rename each temp
   * over its target, mark committed. Any failure rolls every file back to its original before rethrowing.
   */
  async write(transactionId: string, writes: readonly JournalWrite[]): Promise<void> {
    const hook = stageHook(this.runtime);
    const backups = join(this.dir, transactionId);
    const journal: Journal = {
      transactionId,
      state: "preparing",
      entries: writes.map((write, index) => ({
        file: write.file,
        target: write.target,
        backup: join(backups, `${index}.orig`),
        originalHash: this.runtime.sha256(write.original),
        temp: join(dirname(write.target), `.${basename(write.target)}.signalint-${transactionId}.tmp`),
      })),
    };
    await this.runtime.mkdirp(backups);
    try {
      await this.save(journal);
      hook("journal-written");
      for (const [index, write] of writes.entries()) {
        const entry = journal.entries[index] as JournalEntry;
        await this.runtime.writeFileDurable(entry.backup, write.original);
        await this.runtime.writeFileDurable(entry.temp, write.patched);
        // The renamed file keeps the original's permissions (an executable script stays executable).
        await this.runtime.copyMode(entry.target, entry.temp);
        hook(`temp-${index}`);
      }
      await this.save({ ...journal, state: "committing" });
      journal.state = "committing";
      hook("committing");
      for (const [index, entry] of journal.entries.entries()) {
        await this.runtime.rename(entry.temp, entry.target);
        hook(`renamed-${index}`);
      }
      for (const dir of new Set(journal.entries.map((entry) => dirname(entry.target)))) await this.runtime.syncDir(dir);
      await this.save({ ...journal, state: "committed" });
      hook("committed");
    } catch (error) {
      await this.rollback(journal);
      throw new SignalintError("apply_failed", `Nothing was changed: the write failed and every file was rolled back (${(error as Error).message})`);
    }
    await this.forget(transactionId).catch(() => {});
  }

  /** Put every file of a journal back to its original and delete the journal (kept if the rollback itself fails). */
  private async rollback(journal: Journal): Promise<void> {
    for (const entry of journal.entries) {
      // A restore interrupted by a crash leaves its own temp; the target is then checked again below.
      const restore = `${entry.temp.slice(0, -".tmp".length)}.restore.tmp`;
      await this.runtime.removeFile(restore);
      // Its temp still there: this file was never renamed, so the target is the original.
      if (await this.runtime.lstat(entry.temp)) {
        await this.runtime.removeFile(entry.temp);
        continue;
      }
      if (journal.state === "preparing") continue;
      const current = await this.runtime.readText(entry.target).catch(ifMissing(null));
      if (current !== null && this.runtime.sha256(current) === entry.originalHash) continue;
      const original = await this.runtime.readText(entry.backup);
      if (this.runtime.sha256(original) !== entry.originalHash) throw new Error(`backup of ${entry.file} is damaged; left ${entry.target} as is`);
      await this.runtime.writeFileDurable(restore, original);
      await this.runtime.copyMode(entry.target, restore).catch(() => {});
      await this.runtime.rename(restore, entry.target);
    }
    for (const dir of new Set(journal.entries.map((entry) => dirname(entry.target)))) await this.runtime.syncDir(dir).catch(() => {});
    await this.forget(journal.transactionId);
  }

  /**
   * At start: roll back every unfinished journal (a crash mid-apply leaves every file original), finish committed ones,
   * and remove temp files they name. Returns the files restored or cleaned, for a warning.
   */
  async recover(): Promise<string[]> {
    const touched: string[] = [];
    for (const entry of await this.runtime.readDir(this.dir).catch(ifMissing([]))) {
      const id = entry.name.replace(/\.(journal|json)(\.tmp)?$/, "");
      if (!TX_ID.test(id)) continue;
      // A plan an earlier version wrote (`.json`) is recovered the same way.
      const legacy = join(this.dir, `${id}${LEGACY_PLAN}`);
      const path = (await this.runtime.stat(legacy))?.isFile ? legacy : join(this.dir, `${id}${PLAN}`);
      // A plan of the wrong kind (a directory) is set aside: there is nothing in it to roll back.
      if (await setAsideUnless(this.runtime, path, "file")) continue;
      // Unreadable (not just missing) stops the recovery: forgetting a plan it cannot read could lose a rollback.
      const journal = parseJournal(await this.runtime.readText(path).catch(ifMissing(null)));
      if (!journal || !Array.isArray(journal.entries) || journal.transactionId !== id) {
        // No readable plan: the crash came before the first journal write completed, so no temp or target was touched.
        await this.forget(id);
        continue;
      }
      if (journal.state === "committed") {
        await this.forget(id);
        continue;
      }
      await this.rollback(journal);
      touched.push(...journal.entries.map((item) => item.file));
    }
    return touched;
  }
}
