import { relative } from "node:path";
import type { WarmOutcome, WarmRequest, WarmTsPool } from "../../typescript/warm-pool.ts";
import type { EngineJob } from "../job/engine-job.ts";

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
export async function namedThenWhole(
  pool: WarmTsPool,
  request: WarmRequest,
  first: NamedFirst | null | undefined,
  seen: (answer: WarmOutcome) => void = () => {},
): Promise<WarmOutcome> {
  const named = await pool.check(first ? { ...request, first: first.files } : request);
  // The first answer, whole or the named files' (it carries what the request's dependentsOf asked).
  seen(named);
  if (!first || named.status !== "ok" || named.pending === undefined) return named;
  // Not the caller's to cancel: once the named answer is given, the re-check is the program's (the next check needs it).
  const { signal, dependentsOf: _asked, ...detached } = request;
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

/**
 * A warm program's first answer: the files importing the check's named ones (see CheckDependents), or why it cannot
 * tell (a solution, TypeScript 7, an answer an earlier server stored). A program that holds none of them says so (its
 * `held` is empty): it knows nothing of their importers, which is not that there are none.
 */
export function dependentsSeen(job: EngineJob, tsconfig: string, answer: WarmOutcome, solution: boolean): void {
  if (answer.status !== "ok") return;
  const kind = solution ? "a solution" : "TypeScript 7, or an answer stored by an earlier server";
  const why = `the warm program of ${relative(job.root, tsconfig) || tsconfig} does not tell which files import the checked ones (${kind})`;
  job.dependents?.report(tsconfig, answer.dependents ?? { unknown: why });
}

/** A program that gave no warm answer (the command line, svelte-check, a failure) cannot tell who imports what. */
export function dependentsUnknown(job: EngineJob, tsconfig: string): void {
  const name = relative(job.root, tsconfig) || tsconfig;
  job.dependents?.report(tsconfig, { unknown: `${name} was checked without a warm program, which alone knows which files import the checked ones` });
}
