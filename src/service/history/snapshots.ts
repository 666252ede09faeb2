import { join } from "node:path";
import { z } from "zod";
import { ENGINE_NAMES, type Cluster, type Engines, type Snapshot, type WorkflowStale } from "../../core/contracts.ts";
import { publicWorkflowIssue, type SnapshotIssue, type UncheckedFiles } from "../../core/delta.ts";
import { FsError, ifMissing } from "../../core/errors.ts";
import type { Runtime } from "../../runtime/types.ts";
import { isKind, setAside, setAsideUnless } from "../project/state-kinds.ts";

/** How many snapshots stay addressable; older ones answer check_expired. */
export const RETAINED_SNAPSHOTS = 50;
/** Expired ids remembered (so "expired" can be told from "unknown", across restarts too). */
const REMEMBERED_EXPIRED = 2000;
/** Snapshots older than this answer check_expired. */
export const SNAPSHOT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** Disk budget of persisted snapshots: past it the oldest files are deleted (those ids then expire at the next start). */
export const SNAPSHOT_DISK_BUDGET = 64 * 1024 * 1024;
/** A snapshot bigger than this is kept in memory only. */
const MAX_PERSISTED_BYTES = 16 * 1024 * 1024;
const CHECK_ID = /^chk-[0-9a-f]{6,64}$/;
/**
 * A snapshot's file name: JSON inside, but no `.json` name — the state directory sits in the project tree, and a
 * user's own `eslint .` (a config that lints JSON) or `prettier --check .` would take `.json` files there for theirs.
 */
export const snapshotFile = (checkId: string) => `${checkId}.snapshot`;
/** The ids of expired snapshots (so a request for one answers check_expired after a restart). */
const EXPIRED_FILE = "expired.list";

/** A snapshot as the service keeps it: issues with full ids, and when its observation started. */
export interface StoredSnapshot {
  seq: number;
  checkId: string;
  createdAt: string;
  /** Epoch ms when the check started reading files (a file modified later is stale for the live view). */
  observedAtMs: number;
  tool: string;
  /** ingest_diagnostics: which server or editor the diagnostics came from (the live view keeps one observation per provider). */
  provider?: string;
  /** The client session that asked for the check (an MCP connection); after_edit_check's default baseline is that session's. */
  session?: string;
  scope: string[];
  engines: Engines;
  clusters: Cluster[];
  issues: SnapshotIssue[];
  /** Files an engine left unchecked (its issues there are not compared); absent: none, or an ingest. */
  unchecked?: UncheckedFiles[];
  cache?: Snapshot["cache"];
  durationMs: number;
  /** tsc answered the named files only, the rest still re-checking (never a default baseline: see after-edit.ts). */
  pending?: true;
}

/** What a caller records; the store adds seq and createdAt. */
export type NewSnapshot = Omit<StoredSnapshot, "seq" | "createdAt">;

function stale(code: WorkflowStale["code"], message: string): WorkflowStale {
  return { status: "stale", code, message };
}

/** What a snapshot file read back must hold to be used (anything else: a corrupt file, skipped). */
const StoredShape = z.looseObject({
  seq: z.number(),
  checkId: z.string().regex(CHECK_ID),
  createdAt: z.string(),
  scope: z.array(z.unknown()),
  issues: z.array(z.unknown()),
  unchecked: z.array(z.unknown()).optional(),
  clusters: z.array(z.unknown()),
  engines: z.custom<object>((value) => typeof value === "object" && value !== null),
  tool: z.string(),
  observedAtMs: z.number(),
});

function isStored(value: unknown): value is StoredSnapshot {
  return StoredShape.safeParse(value).success;
}

/** A snapshot an earlier Signalint recorded names only the engines it knew: the others did not run in that check. */
function withEveryEngine(snapshot: StoredSnapshot): StoredSnapshot {
  const known = snapshot.engines as Partial<Engines>;
  return { ...snapshot, engines: Object.fromEntries(ENGINE_NAMES.map((engine) => [engine, known[engine] ?? { status: "disabled" }])) as Engines };
}

/**
 * Immutable check snapshots: the last 50 in memory and in `<stateDir>/snapshots/` (one compact JSON file each,
 * written atomically), so a restarted server still compares against its last checks. Corrupt files are skipped.
 */
export class SnapshotStore {
  private readonly dir: string;
  private readonly snapshots: StoredSnapshot[] = [];
  private expired: string[] = [];
  private seq = 0;
  /** Bytes of each persisted snapshot file, oldest first. */
  private readonly persisted = new Map<string, number>();

  constructor(
    private readonly runtime: Runtime,
    stateDir: string,
    private readonly diskBudget = SNAPSHOT_DISK_BUDGET,
  ) {
    this.dir = join(stateDir, "snapshots");
  }

  private warn(message: string): void {
    this.runtime.writeStderr(`signalint: ${message}\n`);
  }

  /** A persisted file's JSON value; null when it is corrupt, or unreadable (said: an unreadable file is not "corrupt"). */
  private async readJson(path: string): Promise<unknown> {
    let text: string;
    try {
      text = await this.runtime.readText(path);
    } catch (error) {
      if (!(error instanceof FsError && error.kind === "not_found")) this.warn(`cannot read ${path}: ${(error as Error).message}`);
      return null;
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      // A crash-truncated or foreign file: skipped as corrupt.
      return null;
    }
  }

  /**
   * Load persisted snapshots; returns how many files were skipped as corrupt. The state directory's owner sets them
   * (and entries of the wrong kind) aside; a reader (`setAside: false`, doctor) only skips them.
   */
  async load(options: { setAside?: boolean } = {}): Promise<number> {
    const owner = options.setAside !== false;
    // Not a directory (a reader such as doctor, which sets nothing aside, meets it as it is): none persisted.
    const entries = (await isKind(this.runtime, this.dir, "directory")) ? await this.runtime.readDir(this.dir).catch(ifMissing([])) : [];
    let skipped = 0;
    const loaded: StoredSnapshot[] = [];
    const sizes = new Map<string, number>();
    for (const entry of entries) {
      const path = join(this.dir, entry.name);
      if (entry.name === EXPIRED_FILE) {
        const ids = owner && (await setAsideUnless(this.runtime, path, "file")) ? [] : await this.readJson(path);
        if (Array.isArray(ids)) this.expired = ids.filter((id): id is string => typeof id === "string").slice(-REMEMBERED_EXPIRED);
        else if (owner) await setAside(this.runtime, path, "is corrupt");
        continue;
      }
      if (!entry.name.endsWith(snapshotFile(""))) continue;
      if (owner ? await setAsideUnless(this.runtime, path, "file") : !(await isKind(this.runtime, path, "file"))) continue;
      const value = await this.readJson(path);
      if (isStored(value) && snapshotFile(value.checkId) === entry.name) {
        loaded.push(withEveryEngine(value));
        sizes.set(value.checkId, (await this.runtime.stat(path))?.size ?? 0);
      } else {
        // Set aside: not read (and warned about) again at every start.
        skipped++;
        if (owner) await setAside(this.runtime, path, "is not a readable snapshot");
        else this.warn(`skipped corrupt snapshot ${path}`);
      }
    }
    loaded.sort((a, b) => a.seq - b.seq);
    for (const entry of loaded) this.persisted.set(entry.checkId, sizes.get(entry.checkId) ?? 0);
    this.seq = loaded.at(-1)?.seq ?? 0;
    const oldest = Date.now() - SNAPSHOT_MAX_AGE_MS;
    // Too old ones are evicted like any other (so they answer check_expired), at the front of the queue.
    const [young, old] = [loaded.filter((entry) => Date.parse(entry.createdAt) >= oldest), loaded.filter((entry) => !(Date.parse(entry.createdAt) >= oldest))];
    this.snapshots.push(...old, ...young);
    await this.evict(old.length);
    return skipped;
  }

  /** Record a snapshot (in memory at once; persisted best effort) and return it. */
  async record(fresh: NewSnapshot): Promise<StoredSnapshot> {
    const snapshot: StoredSnapshot = { ...fresh, seq: ++this.seq, createdAt: new Date().toISOString() };
    this.snapshots.push(snapshot);
    const json = JSON.stringify(snapshot);
    try {
      if (json.length <= MAX_PERSISTED_BYTES) {
        await this.runtime.mkdirp(this.dir);
        await this.runtime.writeFileAtomic(join(this.dir, snapshotFile(snapshot.checkId)), json);
        this.persisted.set(snapshot.checkId, json.length);
        await this.keepBudget();
      } else {
        this.warn(`snapshot ${snapshot.checkId} is ${json.length} bytes; kept in memory only`);
      }
    } catch (error) {
      this.warn(`could not persist snapshot ${snapshot.checkId}: ${(error as Error).message}`);
    }
    await this.evict();
    return snapshot;
  }

  /** Drop the oldest beyond the count bound (and at least `atLeast`): they answer check_expired from now on. */
  private async evict(atLeast = 0): Promise<void> {
    const old = this.snapshots.splice(0, Math.max(atLeast, this.snapshots.length - RETAINED_SNAPSHOTS));
    if (!old.length) return;
    await this.markExpired(old.map((entry) => entry.checkId));
    for (const entry of old) await this.unpersist(entry.checkId);
  }

  private async markExpired(ids: readonly string[]): Promise<void> {
    this.expired = [...this.expired.filter((id) => !ids.includes(id)), ...ids].slice(-REMEMBERED_EXPIRED);
    try {
      await this.runtime.mkdirp(this.dir);
      await this.runtime.writeFileAtomic(join(this.dir, EXPIRED_FILE), JSON.stringify(this.expired));
    } catch (error) {
      this.warn(`could not record expired snapshots: ${(error as Error).message}`);
    }
  }

  private async unpersist(checkId: string): Promise<void> {
    this.persisted.delete(checkId);
    await this.runtime
      .removeFile(join(this.dir, snapshotFile(checkId)))
      .catch((error: Error) => this.warn(`could not prune snapshot ${checkId}: ${error.message}`));
  }

  /** Past the disk budget, delete the oldest files; those snapshots stay in memory now but expire at the next start. */
  private async keepBudget(): Promise<void> {
    let total = [...this.persisted.values()].reduce((sum, bytes) => sum + bytes, 0);
    const dropped: string[] = [];
    for (const [checkId, bytes] of this.persisted) {
      if (total <= this.diskBudget || this.persisted.size - dropped.length <= 1) break;
      total -= bytes;
      dropped.push(checkId);
    }
    if (!dropped.length) return;
    await this.markExpired(dropped);
    for (const checkId of dropped) await this.unpersist(checkId);
  }

  /** Every retained snapshot, oldest first. */
  all(): readonly StoredSnapshot[] {
    return this.snapshots;
  }

  latest(): StoredSnapshot | undefined {
    return this.snapshots.at(-1);
  }

  /** A snapshot by id, or the stale answer (expired when it was evicted, unknown otherwise). */
  find(checkId: string): StoredSnapshot | WorkflowStale {
    const found = this.snapshots.find((entry) => entry.checkId === checkId);
    if (found) return found;
    if (this.expired.includes(checkId))
      return stale("check_expired", `Check ${checkId} is older than the last ${RETAINED_SNAPSHOTS} snapshots; run a check again.`);
    return stale("check_unknown", `No check ${checkId} is known to this server; run check_project to get a checkId.`);
  }
}

/** The public form of a snapshot (get_diagnostic_snapshot); compact keys are the MCP layer's business. */
export function publicSnapshot(snapshot: StoredSnapshot): Snapshot {
  const {
    seq: _seq,
    observedAtMs: _observed,
    provider: _provider,
    session: _session,
    unchecked: _unchecked,
    pending: _pending,
    issues,
    cache,
    ...rest
  } = snapshot;
  return { ...rest, totalIssues: issues.length, issues: issues.map(publicWorkflowIssue), ...(cache && Object.keys(cache).length ? { cache } : {}) };
}
