import type { CheckEvent } from "../service/check/check-events.ts";

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
  const found = event.status === "ok" ? `, ${event.issues} issue${event.issues === 1 ? "" : "s"}` : "";
  return `${event.engine} finished (${event.status}${found})`;
}

/**
 * Turn check events into rate-limited progress notifications: an event arriving within PROGRESS_INTERVAL_MS of the
 * last notification is held back (a newer one replaces it) and sent when the interval is over; `flush` sends what is
 * held back at once. `progress` counts events, so it increases with every notification.
 */
export function progressReporter(token: string | number, send: (params: ProgressParams) => Promise<void>) {
  let count = 0;
  let lastSent = -Infinity;
  let held: ProgressParams | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sending: Promise<void> = Promise.resolve();
  const emit = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!held) return;
    const params = held;
    held = null;
    lastSent = performance.now();
    // A notification that cannot be delivered (client gone, request cancelled) is not an error of the check.
    sending = send(params).catch(() => {});
  };
  return {
    onEvent: (event: CheckEvent) => {
      held = { progressToken: token, progress: ++count, message: describeEvent(event) };
      const wait = lastSent + PROGRESS_INTERVAL_MS - performance.now();
      if (wait <= 0) emit();
      else timer ??= setTimeout(emit, wait);
    },
    /** Send what is held back, before the result goes out. */
    flush: async (): Promise<void> => {
      emit();
      await sending;
    },
  };
}
