import type { WarmOutcome, WarmRequest, WarmTsPool } from "../../typescript/warm-pool.ts";

// check_files and after_edit_check answer the named files before the rest of what an edit affects has been re-checked
// (issue 36 item 2): a warm TypeScript 5/6 program answers them first, and when its whole re-check outlasts the check's
// time budget (pendingAfterMs) the answer is theirs, with the rest `pending` while the host goes on.

/** The named files (absolute paths) and when (performance.now()) to stop waiting for the whole re-check. */
export interface NamedFirst {
  files: string[];
  deadline: number;
}

/**
 * One warm program's check, the named files first: the host answers them (an outcome with `pending`), and the same
 * program's whole check is asked right after on the same host, which takes it up once that answer is out. The whole
 * answer when it comes before the deadline; else the named files', pending, while the host goes on. The next check
 * of the program (the same call again) waits behind that re-check in the host's queue and is answered from it
 * (nothing changed since: the program reuses it), so the re-check never runs twice and a later answer is never a part.
 */
export async function namedThenWhole(pool: WarmTsPool, request: WarmRequest, first: NamedFirst | null | undefined): Promise<WarmOutcome> {
  if (!first) return pool.check(request);
  const named = await pool.check({ ...request, first: first.files });
  if (named.status !== "ok" || named.pending === undefined) return named;
  // Not the caller's to cancel: once the named answer is given, the re-check is the program's (the next check needs it).
  const { signal, ...detached } = request;
  return (await beforeDeadline(pool.check(detached), first.deadline, signal)) ?? named;
}

/** The promise's value when it settles before the deadline (and before an abort), else null. */
async function beforeDeadline<T>(promise: Promise<T>, deadline: number, signal?: AbortSignal): Promise<T | null> {
  const left = deadline - performance.now();
  if (left <= 0 || signal?.aborted) return null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stop = () => {};
  const expired = new Promise<null>((resolve) => {
    stop = () => resolve(null);
    timer = setTimeout(stop, left);
    signal?.addEventListener("abort", stop, { once: true });
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", stop);
  }
}
