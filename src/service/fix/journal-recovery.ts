// Recovery of interrupted fixes at start (issue 31: nothing recovered is trusted blindly). Only the state directory's
// owner runs it. Each journal is verified (journal-plan.ts) before anything in it is done; one that fails is set aside
// in `journal/rejected/` with one warning line and the start goes on: a journal's content never stops a check.
import { join } from "node:path";
import { ifMissing } from "../../core/errors.ts";
import { FileJournal, PLAN } from "./journal.ts";
import { checkJournalPaths, JournalRejectedError, TX_ID, verifiedJournal } from "./journal-plan.ts";

/** What a recovery did, for the service to say. */
export interface RecoveryReport {
  /** Files of interrupted fixes put back (or found) in their original state. */
  rolledBack: string[];
  /** Files left as they are: edited since the interrupted fix. */
  kept: string[];
  /** One line per journal set aside, or left for a later start. */
  warnings: string[];
}

const ID = TX_ID.source.slice(1, -1);
const PLAN_NAME = new RegExp(`^(${ID})\\.journal$`);
/** A plan earlier versions wrote: untagged, so never honoured. */
const LEGACY_PLAN = new RegExp(`^(${ID})\\.json$`);
/** A plan being written, with its writer's pid (`<id>.journal.<pid>.tmp`), or an earlier version's (`.journal.tmp`). */
const PLAN_TEMP = new RegExp(`^(${ID})\\.(?:journal|json)(?:\\.(\\d+))?\\.tmp$`);

/**
 * Roll back every interrupted fix whose writer is gone (a session without the lock writes its journals here too, and
 * a live one's is in flight), finish committed ones, set aside what cannot be trusted. Never throws for a journal.
 */
export async function recoverJournals(journal: FileJournal, realRoot: string): Promise<RecoveryReport> {
  const report: RecoveryReport = { rolledBack: [], kept: [], warnings: [] };
  const { runtime, dir } = journal;
  let names: string[];
  try {
    names = (await runtime.readDir(dir).catch(ifMissing([]))).map((entry) => entry.name);
    if (names.length) await journal.integrityKey();
  } catch (error) {
    report.warnings.push(`could not recover interrupted fixes in ${dir} (${(error as Error).message}); a later start tries again`);
    return report;
  }
  for (const name of names) {
    const id = PLAN_NAME.exec(name)?.[1] ?? LEGACY_PLAN.exec(name)?.[1];
    if (id) await recoverOne(journal, { id, name, realRoot }, report);
  }
  try {
    await removeLeftovers(journal, names);
    await pruneSetAside(journal, report);
  } catch (error) {
    // Left-overs protect nothing and are tried again at the next start; they never stop this one.
    report.warnings.push(`could not remove left-overs of old fixes in ${dir} (${(error as Error).message})`);
  }
  return report;
}

/**
 * Remove half-written plans whose writer is gone and backup directories without a plan (write() makes one after its
 * plan and forget() removes it first, so no writer needs it: an earlier version's crash left it).
 */
async function removeLeftovers(journal: FileJournal, names: readonly string[]): Promise<void> {
  const { runtime, dir } = journal;
  for (const name of names) {
    const temp = PLAN_TEMP.exec(name);
    if (temp && writerGone(journal, Number(temp[2] ?? 0))) await runtime.removeFile(join(dir, name));
    if (!TX_ID.test(name) || (await runtime.lstat(join(dir, `${name}${PLAN}`))) || (await runtime.lstat(join(dir, `${name}.json`)))) continue;
    await runtime.removeFile(join(dir, name));
  }
}

/** How many set-aside journals `journal/rejected/` keeps: the newest, so a repository that plants one per start cannot fill the disk. */
export const SET_ASIDE_KEPT = 20;

/** Remove the set-aside journals beyond the newest SET_ASIDE_KEPT (each was named in a warning when it was set aside). */
async function pruneSetAside(journal: FileJournal, report: RecoveryReport): Promise<void> {
  const { runtime, dir } = journal;
  const rejected = join(dir, "rejected");
  const entries = await runtime.readDir(rejected).catch(ifMissing([]));
  if (entries.length <= SET_ASIDE_KEPT) return;
  const dated = await Promise.all(
    entries.map(async (entry) => ({ name: entry.name, mtimeMs: (await runtime.lstat(join(rejected, entry.name)))?.mtimeMs ?? 0 })),
  );
  const old = dated.sort((a, b) => b.mtimeMs - a.mtimeMs || a.name.localeCompare(b.name)).slice(SET_ASIDE_KEPT);
  for (const entry of old) await runtime.removeFile(join(rejected, entry.name));
  report.warnings.push(`removed ${old.length} set-aside fix journal(s) older than the newest ${SET_ASIDE_KEPT} in ${rejected}`);
}

/** True when `pid` wrote nothing that is still in flight: not a running process, or this one (a predecessor's pid). */
function writerGone(journal: FileJournal, pid: number): boolean {
  return pid <= 0 || pid === journal.runtime.pid || !journal.runtime.processAlive(pid);
}

/** Recover one plan: verify it, then roll it back or finish it; a journal that cannot be trusted is set aside. */
async function recoverOne(journal: FileJournal, plan: { id: string; name: string; realRoot: string }, report: RecoveryReport): Promise<void> {
  const { runtime, dir } = journal;
  try {
    if (plan.name.endsWith(".json")) throw new JournalRejectedError("legacy", "an earlier version's journal, without an integrity tag");
    // A plan of the wrong kind (a directory, a symlink) holds nothing to roll back: set aside like any damaged plan.
    const info = await runtime.lstat(join(dir, plan.name));
    if (info && (!info.isFile || info.isSymlink)) throw new JournalRejectedError("unreadable", "the plan is not a regular file");
    const text = await runtime.readText(join(dir, plan.name)).catch(ifMissing(null));
    // Gone since the listing: its live writer finished.
    if (text === null) return;
    const found = verifiedJournal(runtime, await journal.integrityKey(), text, plan.id);
    // A session without the lock may still be inside its apply; the previous owner is gone (we hold its lock).
    if (!found.writerOwned && !writerGone(journal, found.writerPid)) return;
    await checkJournalPaths(runtime, found, { realRoot: plan.realRoot, journalDir: dir });
    if (found.state === "committed") return await journal.forget(plan.id);
    const { kept } = await journal.rollback(found);
    report.kept.push(...kept);
    report.rolledBack.push(...found.entries.map((entry) => entry.file).filter((file) => !kept.includes(file)));
  } catch (error) {
    if (error instanceof JournalRejectedError) return await setAside(journal, plan, error.message, report);
    // An I/O failure (a target not writable now): the journal stays, so a later start can still roll it back.
    report.warnings.push(`could not roll back the interrupted fix ${plan.id} (${(error as Error).message}); a later start tries again`);
  }
}

/** Move a journal (plan and backups) to `journal/rejected/`: never executed, never silently deleted. */
async function setAside(journal: FileJournal, plan: { id: string; name: string }, reason: string, report: RecoveryReport): Promise<void> {
  const { runtime, dir } = journal;
  const dest = join(dir, "rejected", `${plan.id}-${runtime.randomHex(4)}`);
  try {
    await runtime.mkdirp(dest);
    // Backups first: a plan left behind by a failure here is set aside again at the next start (its backups missing),
    // while backups without their plan would be removed as left-overs.
    await runtime.rename(join(dir, plan.id), join(dest, "backups")).catch(ifMissing(undefined));
    // `.journal` whatever it was called: the state directory holds no `.json` a user's linter would take for its own.
    await runtime.rename(join(dir, plan.name), join(dest, `${plan.id}${PLAN}`));
    report.warnings.push(`set aside the fix journal ${plan.id}: ${reason}; nothing in it was done (kept in ${dest})`);
  } catch (error) {
    report.warnings.push(`could not set aside the fix journal ${join(dir, plan.name)} (${reason}; ${(error as Error).message}); nothing in it was done`);
  }
}
