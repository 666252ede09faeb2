// What a fix journal holds, and why a recovery may trust it (DESIGN §2, trust boundary; issue 31). A journal tells a
// recovery to overwrite files, so one is honoured only when this user's Signalint wrote it for this very project: it
// carries an HMAC of its canonical form under the per-user key (user-state.ts), names the real root it was written
// for, and every path in it is exactly where write() puts things. Anything else is set aside, never executed.
import { basename, dirname, isAbsolute, join } from "node:path";
import { z } from "zod";
import { relativeToRoot } from "../../core/paths.ts";
import type { Runtime } from "../../runtime/types.ts";

/** A transaction id as transactions.ts makes them. */
export const TX_ID = /^tx-[0-9a-f]{16}$/;
const HASH = /^[0-9a-f]{64}$/;
/** Most files in one journal: transactions.ts allows 100 patches. */
const MAX_ENTRIES = 1000;

const EntrySchema = z
  .object({
    /** Project-relative path (for messages). */
    file: z.string().max(4096),
    /** Real absolute path written (symlinks resolved, so a link is never replaced by a file). */
    target: z.string().max(4096),
    /** Patched content, next to the target (same filesystem, so the rename is atomic). */
    temp: z.string().max(4096),
    /** Original content, in the journal's own backup directory. */
    backup: z.string().max(4096),
    originalHash: z.string().regex(HASH),
    /** What the rename put there: rollback restores a file only while it still holds exactly this. */
    patchedHash: z.string().regex(HASH),
  })
  .strict();

const PlanSchema = z
  .object({
    format: z.literal(2),
    transactionId: z.string().regex(TX_ID),
    /** The project's real root when it was written: a journal is recovered only for that project. */
    realRoot: z.string().max(4096),
    /** The writing process: a recovery never touches a live writer's journal (a session without the lock writes here too). */
    writerPid: z.number().int().positive(),
    /**
     * The writer held the state directory's lock: an owner starting now knows it is gone (a lock is taken over only from
     * a dead holder), whichever process has its pid now.
     */
    writerOwned: z.boolean(),
    /** preparing: temps and backups being written, no target touched; committing: renames under way; committed: done. */
    state: z.enum(["preparing", "committing", "committed"]),
    entries: z.array(EntrySchema).min(1).max(MAX_ENTRIES),
    tag: z.string().regex(HASH),
  })
  .strict();

/** One file of a journaled write. */
export type JournalEntry = z.infer<typeof EntrySchema>;
/** A journal as written and read back. */
export type Journal = z.infer<typeof PlanSchema>;
/** A journal before it is tagged. */
export type UntaggedJournal = Omit<Journal, "tag">;

/** A journal that must not be executed (damaged, foreign, or naming paths write() would never use); `code` says why. */
export class JournalRejectedError extends Error {
  constructor(
    readonly code: "unreadable" | "bad_tag" | "foreign" | "bad_path" | "damaged_backup" | "legacy",
    message: string,
  ) {
    super(message);
  }
}

/** The serialization the tag covers: field order fixed here, never JSON key order as parsed. */
function canonical(journal: UntaggedJournal): string {
  const entries = journal.entries.map((entry) => [entry.file, entry.target, entry.temp, entry.backup, entry.originalHash, entry.patchedHash]);
  return JSON.stringify([
    "signalint-journal",
    journal.format,
    journal.transactionId,
    journal.realRoot,
    journal.writerPid,
    journal.writerOwned,
    journal.state,
    entries,
  ]);
}

/** The journal with its integrity tag (HMAC-SHA256 under the user's key). */
export function tagJournal(runtime: Runtime, key: string, journal: UntaggedJournal): Journal {
  const { format, transactionId, realRoot, writerPid, writerOwned, state, entries } = journal;
  return { format, transactionId, realRoot, writerPid, writerOwned, state, entries, tag: runtime.hmacSha256(key, canonical(journal)) };
}

/** Where write() puts a target's patched temp: beside it, named by the transaction. */
export function tempPathOf(target: string, transactionId: string): string {
  return join(dirname(target), `.${basename(target)}.signalint-${transactionId}.tmp`);
}

/** Where write() puts the backup of a transaction's `index`th file. */
export function backupPathOf(journalDir: string, transactionId: string, index: number): string {
  return join(journalDir, transactionId, `${index}.orig`);
}

/** Parse a journal's text and check its tag; throws JournalRejectedError when it is not one this user wrote. */
export function verifiedJournal(runtime: Runtime, key: string, text: string, transactionId: string): Journal {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new JournalRejectedError("unreadable", "not a journal (bad JSON)");
  }
  const parsed = PlanSchema.safeParse(json);
  if (!parsed.success) throw new JournalRejectedError("unreadable", "not a journal this version writes (no integrity tag, or a malformed field)");
  const journal = parsed.data;
  if (runtime.hmacSha256(key, canonical(journal)) !== journal.tag)
    throw new JournalRejectedError("bad_tag", "its integrity tag does not match this user's key");
  if (journal.transactionId !== transactionId) throw new JournalRejectedError("foreign", `it names transaction ${journal.transactionId}`);
  return journal;
}

/**
 * Check that a tagged journal is for this project and names only the paths write() uses: each target inside the real
 * root (its real parent directory is the recorded one, the target no symlink to outside), each backup in the
 * journal's own backup directory, each temp beside its target. Throws JournalRejectedError.
 */
export async function checkJournalPaths(runtime: Runtime, journal: Journal, where: { realRoot: string; journalDir: string }): Promise<void> {
  if (journal.realRoot !== where.realRoot) throw new JournalRejectedError("foreign", `it was written for ${journal.realRoot}, not ${where.realRoot}`);
  const targets = new Set<string>();
  for (const [index, entry] of journal.entries.entries()) {
    const { target } = entry;
    if (targets.has(target)) throw new JournalRejectedError("bad_path", `it names ${target} twice`);
    targets.add(target);
    if (!(await insideRealRoot(runtime, target, where.realRoot)))
      throw new JournalRejectedError("bad_path", `its target ${target} is not a file inside ${where.realRoot} (as the file system is now)`);
    if (entry.backup !== backupPathOf(where.journalDir, journal.transactionId, index))
      throw new JournalRejectedError("bad_path", `its backup ${entry.backup} is not in its own backup directory`);
    if (entry.temp !== tempPathOf(target, journal.transactionId)) throw new JournalRejectedError("bad_path", `its temp ${entry.temp} is not beside ${target}`);
  }
}

/**
 * True when `target` is a file path under `realRoot` as the file system is now: its parent's real path is exactly the
 * recorded one (write() records real paths; a directory since replaced by a symlink is refused), and the target, when
 * a symlink, resolves inside the root.
 */
async function insideRealRoot(runtime: Runtime, target: string, realRoot: string): Promise<boolean> {
  if (!isAbsolute(target)) return false;
  const inside = (path: string) => {
    const relative = relativeToRoot(realRoot, path);
    return relative !== null && relative !== ".";
  };
  if (!inside(target) || (await runtime.realPath(dirname(target))) !== dirname(target)) return false;
  if (!(await runtime.lstat(target))?.isSymlink) return true;
  const real = await runtime.realPath(target);
  return real !== null && inside(real);
}
