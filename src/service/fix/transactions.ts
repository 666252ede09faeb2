import { join } from "node:path";
import type { WorkflowStale } from "../../core/contracts.ts";
import type { PostCheckError, PreviewResult, Rollback } from "../../core/fix-contracts.ts";
import { ifMissing, InvalidArgumentsError, SignalintError } from "../../core/errors.ts";
import { countLineChanges } from "../../core/line-diff.ts";
import { unifiedDiff } from "../../core/unified-diff.ts";
import { relativeToRoot } from "../../core/paths.ts";
import { FileJournal } from "./journal.ts";
import { validatePaths } from "../project/project.ts";
import { afterEditCheck, type AfterEdit } from "../workflow/after-edit.ts";
import { planEngineFixes, type EngineFixRequest, type FixService } from "./engine-fixes.ts";
import { callerFixService } from "./fix-plan.ts";
import { rollbackVerdict } from "./verify.ts";

/** Most transactions held at once; the oldest is dropped (and answers transaction_expired) past this. */
export const MAX_TRANSACTIONS = 20;
/** A prepared transaction lives this long. */
export const TRANSACTION_TTL_MS = 15 * 60 * 1000;
/** Whole-request bound: the SDK's stdio transport drops messages over 10 MiB, so larger requests are refused clearly. */
export const MAX_REQUEST_BYTES = 8 * 1024 * 1024;
/** Patches per transaction. */
export const MAX_PATCHES = 100;

/** One file change as preview receives it. */
export interface Patch {
  file: string;
  originalContent: string;
  patchedContent: string;
  description?: string;
}

interface Transaction {
  transactionId: string;
  expiresAtMs: number;
  patches: (Patch & { file: string; target: string })[];
  /** Built from the engines' edits: the check the issues came from and the issue ids the edits address. */
  engine?: { checkId: string | null; addressed: string[] };
}

/** What apply answers: the files written, their check and delta; with `rollback`, verify undid the write. */
export interface ApplyOutcome {
  files: string[];
  result: AfterEdit | null;
  postCheckError?: PostCheckError;
  rollback?: Rollback;
}

function stale(code: WorkflowStale["code"], message: string): WorkflowStale {
  return { status: "stale", code, message };
}

/** Prepared fix transactions (in memory, bounded, with a TTL) and their all-or-nothing application. */
export class TransactionStore {
  private readonly open = new Map<string, Transaction>();
  private readonly gone = new Set<string>();
  /** Applies run one at a time, so two transactions over the same file cannot interleave their drift checks and writes. */
  private applying: Promise<unknown> = Promise.resolve();
  readonly journal: FileJournal;

  constructor(private readonly service: FixService) {
    const { project } = service;
    this.journal = new FileJournal(service.runtime, project.journalStateDir ?? project.stateDir, project.owned === true);
  }

  private expire(transactionId: string): void {
    this.open.delete(transactionId);
    this.gone.add(transactionId);
    if (this.gone.size > 10_000) this.gone.delete(this.gone.values().next().value as string);
  }

  private sweep(now: number): void {
    for (const [id, transaction] of this.open) if (transaction.expiresAtMs <= now) this.expire(id);
  }

  private find(transactionId: string): Transaction | WorkflowStale {
    this.sweep(Date.now());
    const found = this.open.get(transactionId);
    if (found) return found;
    if (this.gone.has(transactionId))
      return stale("transaction_expired", `Transaction ${transactionId} expired, was applied or discarded; preview the fix again.`);
    return stale("transaction_not_found", `No transaction ${transactionId} was prepared by this server; call preview_diagnostic_fix.`);
  }

  /** Validate a file's path (relative, or absolute inside the root) and return it relative plus its real location. */
  private async locate(file: string): Promise<{ file: string; target: string }> {
    const { project, runtime } = this.service;
    const absolute = file.startsWith("/") || /^[A-Za-z]:[\\/]/.test(file);
    const relative = absolute ? (relativeToRoot(project.root, file) ?? relativeToRoot(project.realRoot, file)) : file;
    if (relative === null) throw new InvalidArgumentsError(`Path ${JSON.stringify(file.slice(0, 200))} refused: outside the project root`, "invalid_path");
    const [valid] = await validatePaths(runtime, project, [relative], "file");
    return { file: valid as string, target: (await runtime.realPath(join(project.root, valid as string))) as string };
  }

  /** Files whose content on disk is not the patch's original any more. */
  private async drifted(patches: Transaction["patches"]): Promise<string[]> {
    const contents = await Promise.all(patches.map((patch) => this.service.runtime.readText(patch.target).catch(ifMissing(null))));
    return patches.filter((patch, index) => contents[index] !== patch.originalContent).map((patch) => patch.file);
  }

  /** preview_diagnostic_fix: validate and hold the patches; writes nothing. */
  async preview(patches: readonly Patch[]): Promise<PreviewResult> {
    const bytes = patches.reduce(
      (sum, patch) => sum + new TextEncoder().encode(patch.originalContent + patch.patchedContent + (patch.description ?? "")).length,
      0,
    );
    if (bytes > MAX_REQUEST_BYTES) {
      throw new SignalintError(
        "request_too_large",
        `The patches hold ${bytes} bytes, over the ${MAX_REQUEST_BYTES}-byte bound; split the fix into smaller transactions.`,
      );
    }
    return this.hold(await this.validated(patches));
  }

  /**
   * preview_diagnostic_fix by issues, cluster or files: the engines' own edits (engine-fixes.ts) held as a
   * transaction that apply verifies by default; writes nothing in the project. A daemon's client's engines run in its
   * environment (`env`).
   */
  async previewEngineFixes(request: EngineFixRequest, session?: string, env?: Readonly<Record<string, string>>): Promise<PreviewResult> {
    const plan = await planEngineFixes(callerFixService(this.service, env), request, session);
    if (plan.patches.length === 0) {
      const why = plan.notFixed.slice(0, 5).map((entry) => `${entry.issue}: ${entry.reason}`);
      throw new SignalintError(
        "nothing_to_fix",
        `No engine offers an edit here${why.length ? `: ${why.join("; ")}` : ": the files hold nothing ESLint, Biome, oxlint or TypeScript (5.x/6.x) fixes"}.`,
      );
    }
    const held = this.hold(await this.validated(plan.patches), { checkId: plan.checkId, addressed: plan.addressed });
    return {
      ...held,
      files: held.files.map((entry, index) => {
        const patch = plan.patches[index] as (typeof plan.patches)[number];
        return { ...entry, diff: unifiedDiff(patch.file, patch.originalContent, patch.patchedContent), fixes: patch.fixes };
      }),
      ...(plan.notFixed.length ? { notFixed: plan.notFixed } : {}),
      verify: true,
    };
  }

  /** Locate every patch's file, refuse a file given twice and a patch whose original is not the file's content now. */
  private async validated(patches: readonly Patch[]): Promise<Transaction["patches"]> {
    const located = await Promise.all(patches.map(async (patch) => ({ ...patch, ...(await this.locate(patch.file)) })));
    const seen = new Set<string>();
    for (const patch of located) {
      if (seen.has(patch.target))
        throw new InvalidArgumentsError(`File ${JSON.stringify(patch.file)} appears in more than one patch; give each file once`, "duplicate_file");
      seen.add(patch.target);
    }
    const drift = await this.drifted(located);
    if (drift.length)
      throw new SignalintError(
        "drift",
        `originalContent differs from the file on disk for: ${drift.join(", ")}; read the files again and re-create the patches.`,
      );
    return located;
  }

  /** Hold validated patches as a new transaction. */
  private hold(located: Transaction["patches"], engine?: Transaction["engine"]): PreviewResult {
    const now = Date.now();
    this.sweep(now);
    while (this.open.size >= MAX_TRANSACTIONS) this.expire(this.open.keys().next().value as string);
    const transactionId = `tx-${this.service.runtime.sha256(`${now}:${Math.random()}:${located.length}`).slice(0, 16)}`;
    this.open.set(transactionId, { transactionId, expiresAtMs: now + TRANSACTION_TTL_MS, patches: located, ...(engine ? { engine } : {}) });
    return {
      transactionId,
      expiresAt: new Date(now + TRANSACTION_TTL_MS).toISOString(),
      files: located.map((patch) => ({ file: patch.file, ...countLineChanges(patch.originalContent, patch.patchedContent) })),
    };
  }

  /** apply_diagnostic_fix: all-or-nothing write, then an after-edit check of the touched files. */
  async apply(
    transactionId: string,
    options: { confirm?: boolean; baselineCheckId?: string; verify?: boolean; session?: string; env?: Readonly<Record<string, string>> },
  ): Promise<ApplyOutcome | WorkflowStale> {
    const transaction = this.find(transactionId);
    if ("status" in transaction) return transaction;
    if (options.confirm !== true) {
      throw new SignalintError(
        "confirmation_required",
        `Applying ${transactionId} writes ${transaction.patches.length} file(s); call again with confirm: true. The transaction stays usable.`,
      );
    }
    if (options.baselineCheckId !== undefined) {
      const baseline = this.service.snapshots.find(options.baselineCheckId);
      if ("status" in baseline) return baseline;
    }
    const verify = options.verify ?? transaction.engine !== undefined;
    const files = transaction.patches.map((patch) => patch.file);
    const baselineCheckId = verify ? await this.verifyBaseline(transaction, files, options) : options.baselineCheckId;
    // Taken out while it is applied, so a concurrent apply of the same id cannot write twice.
    this.open.delete(transactionId);
    try {
      const write = this.applying.then(async () => {
        const drift = await this.drifted(transaction.patches);
        if (drift.length) throw new SignalintError("drift", `Nothing was written: these files changed since the preview: ${drift.join(", ")}.`);
        await this.journal.write(
          transactionId,
          transaction.patches.map((patch) => ({ file: patch.file, target: patch.target, original: patch.originalContent, patched: patch.patchedContent })),
          this.service.project.realRoot,
        );
      });
      // Only a marker that the write settled: its failure is awaited and thrown just below.
      this.applying = write.catch(() => {});
      await write;
    } catch (error) {
      this.open.set(transactionId, transaction);
      throw error;
    }
    this.expire(transactionId);
    const checked = await this.postCheck(files, { ...options, baselineCheckId });
    const rollback = verify && checked.result ? rollbackVerdict(checked.result, transaction.engine?.addressed ?? []) : null;
    if (!rollback) return { files, ...checked };
    await this.undo(transactionId, transaction);
    // The check of the files as restored, so the newest check (and the next after-edit baseline) is what is on disk.
    return { files, ...(await this.postCheck(files, { ...options, baselineCheckId })), rollback };
  }

  /**
   * The check a verified apply compares with: the one named, else the check the engine fix's issues came from, else
   * a check of the files made now, before anything is written. Never a pending check (its named files' answer, the
   * rest not re-checked): errors it never saw elsewhere would look introduced by the fix, and a good fix be undone.
   */
  private async verifyBaseline(
    transaction: Transaction,
    files: string[],
    options: { baselineCheckId?: string; session?: string; env?: Readonly<Record<string, string>> },
  ): Promise<string> {
    const named = options.baselineCheckId ?? transaction.engine?.checkId ?? null;
    if (named !== null) {
      const found = this.service.snapshots.find(named);
      if (!("status" in found) && !found.pending) return named;
    }
    const { session, env } = options;
    return (await this.service.check(files, true, { session, env, whole: true, tool: "apply_diagnostic_fix" })).checkId;
  }

  /**
   * Roll a written transaction back through the journal (all files or none): each file still holding what the fix
   * wrote gets its original again; one edited since is left as it is.
   */
  private async undo(transactionId: string, transaction: Transaction): Promise<void> {
    const write = this.applying.then(async () => {
      const now = await Promise.all(transaction.patches.map((patch) => this.service.runtime.readText(patch.target).catch(ifMissing(null))));
      const writes = transaction.patches
        .filter((patch, index) => now[index] === patch.patchedContent)
        .map((patch) => ({ file: patch.file, target: patch.target, original: patch.patchedContent, patched: patch.originalContent }));
      if (writes.length) await this.journal.write(`${transactionId}-undo`, writes, this.service.project.realRoot);
    });
    // Only a marker that the undo settled: its failure is awaited and thrown just below.
    this.applying = write.catch(() => {});
    await write;
  }

  /**
   * The after-edit check of applied files. The files are written whatever it answers, so a check that cannot run (the
   * fix made signalint.config.json invalid, the baseline was evicted meanwhile) is data, never a thrown error.
   */
  private async postCheck(
    files: string[],
    options: { baselineCheckId?: string; session?: string; env?: Readonly<Record<string, string>> },
  ): Promise<{ result: AfterEdit | null; postCheckError?: PostCheckError }> {
    try {
      const { baselineCheckId, session, env } = options;
      // Whole: the verdict (and the agent's delta) needs every error the fix made, not the named files first.
      const result = await afterEditCheck(this.service, files, { baselineCheckId, session, env, whole: true, tool: "apply_diagnostic_fix" });
      if (!("status" in result)) return { result };
      return { result: null, postCheckError: { code: result.code, message: `The fix was applied; its baseline is gone: ${result.message}` } };
    } catch (error) {
      const code = error instanceof SignalintError ? error.code : "internal_error";
      this.service.runtime.writeStderr(`signalint: the check after applying ${files.join(", ")} failed: ${(error as Error).message}\n`);
      return { result: null, postCheckError: { code, message: `The fix was applied, but the check after it failed: ${(error as Error).message}` } };
    }
  }

  /** discard_diagnostic_fix. */
  discard(transactionId: string): { discarded: true } | WorkflowStale {
    const transaction = this.find(transactionId);
    if ("status" in transaction) return transaction;
    this.expire(transactionId);
    return { discarded: true };
  }
}
