import { DEFAULT_HEARTBEAT_MS } from "../core/config.ts";
import type { CheckEvent } from "../service/job/check-events.ts";

/** Progress notifications are sent at most this often; the last one of a check is always sent. */
export const PROGRESS_INTERVAL_MS = 100;

/** The params of one notifications/progress. */
export interface ProgressParams {
  progressToken: string | number;
  progress: number;
  message: string;
}

/** A human line for one check event. */
export function describeEvent(event: CheckEvent): string {
  if (event.kind === "engine-started") return `${event.engine} started`;
  if (event.kind === "tsc-phase") return `tsc: ${event.phase} of ${event.tsconfig}`;
  // The engine's own count, before the check keeps only the checked paths (tsc reports on the whole program).
  const found = event.status === "ok" ? `, ${event.issues} reported before filtering to the checked paths` : "";
  return `${event.engine} finished (${event.status}${found})`;
}

/** What is running now, from the events so far: each engine started and not finished, with tsc's current phase. */
function runningTracker() {
  const running = new Map<string, string>();
  return {
    note: (event: CheckEvent) => {
      if (event.kind === "engine-started") running.set(event.engine, event.engine);
      else if (event.kind === "tsc-phase") running.set("tsc", `tsc (${event.phase} of ${event.tsconfig})`);
      else running.delete(event.engine);
    },
    describe: (seconds: number) =>
      running.size ? `still running after ${seconds} s: ${[...running.values()].join(", ")}` : `still working after ${seconds} s`,
  };
}

/**
 * Turn check events into rate-limited progress notifications: an event arriving within PROGRESS_INTERVAL_MS of the
 * last notification is held back (a newer one replaces it) and sent when the interval is over; `flush` sends what is
 * held back at once and ends the heartbeat. After `heartbeat` ms without a notification, one says what is still
 * running. `progress` counts notifications, so it increases with every one.
 */
export function progressReporter(token: string | number, send: (params: ProgressParams) => Promise<void>, heartbeat = DEFAULT_HEARTBEAT_MS) {
  const started = performance.now();
  const running = runningTracker();
  let count = 0;
  let lastSent = -Infinity;
  let held: ProgressParams | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let beat: ReturnType<typeof setTimeout> | undefined;
  let done = false;
  let sending: Promise<void> = Promise.resolve();
  const schedule = () => {
    if (beat) clearTimeout(beat);
    if (done) return;
    beat = setTimeout(() => {
      // An event waiting for its interval is news enough: send it instead of a heartbeat.
      held ??= { progressToken: token, progress: ++count, message: running.describe(Math.round((performance.now() - started) / 1000)) };
      emit();
    }, heartbeat);
    // The heartbeat never keeps a process alive on its own (the request does).
    (beat as { unref?: () => void }).unref?.();
  };
  const emit = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!held) return;
    const params = held;
    held = null;
    lastSent = performance.now();
    // A notification that cannot be delivered (client gone, request cancelled) is not an error of the check.
    sending = send(params).catch(() => {});
    schedule();
  };
  schedule();
  return {
    onEvent: (event: CheckEvent) => {
      running.note(event);
      held = { progressToken: token, progress: ++count, message: describeEvent(event) };
      const wait = lastSent + PROGRESS_INTERVAL_MS - performance.now();
      if (wait <= 0) emit();
      else timer ??= setTimeout(emit, wait);
    },
    /** Send what is held back, before the result goes out; no heartbeat after it. */
    flush: async (): Promise<void> => {
      emit();
      done = true;
      if (beat) clearTimeout(beat);
      await sending;
    },
  };
}
