/**
 * The watchdog: a POSIX sh loop reading "+pgid" / "-pgid" lines from this process. Its stdin is the only pipe to it;
 * when this process dies in any way (kill -9 included) the pipe closes, `read` sees end of file, and every process
 * group still registered is killed before the watchdog exits. It needs no node, so it works for the bundle on Node
 * and Deno and for the standalone binary.
 */
export const WATCHDOG_SCRIPT = `g=' '
while IFS= read -r l; do
  case $l in
    +*) g="$g\${l#+} " ;;
    -*) i=\${l#-}; case $g in *" $i "*) g="\${g%% $i *} \${g#* $i }" ;; esac ;;
  esac
done
for i in $g; do kill -s KILL -- "-$i" 2>/dev/null; done`;

/** The write end of a running watchdog's stdin; `write` answers false once the watchdog is gone. */
export interface WatchdogPipe {
  write(line: string): boolean;
}

/**
 * Engine process groups alive right now. Each is registered with a lazily started watchdog, so none outlives this
 * process; `killAll` stops them on an orderly shutdown. `startWatchdog` is null where there is none (Windows).
 */
export class ProcessGroups {
  private readonly live = new Set<number>();
  private watchdog: WatchdogPipe | null = null;
  /** False once a watchdog could not be started at all (no /bin/sh): not retried on every spawn. */
  private available = true;

  constructor(
    private readonly startWatchdog: (() => WatchdogPipe | null) | null,
    private readonly killGroup: (pgid: number) => void,
  ) {}

  add(pgid: number): void {
    this.live.add(pgid);
    this.tell(`+${pgid}`);
  }

  delete(pgid: number): void {
    if (this.live.delete(pgid)) this.tell(`-${pgid}`);
  }

  /** Register a run's group while it lasts, killing it when `signal` aborts; returns the function that ends it. */
  track(pgid: number, signal: AbortSignal | undefined): () => void {
    this.add(pgid);
    const abort = () => this.killGroup(pgid);
    signal?.addEventListener("abort", abort, { once: true });
    return () => {
      signal?.removeEventListener("abort", abort);
      this.delete(pgid);
    };
  }

  /** Kill every registered group now (server shutdown). */
  killAll(): void {
    for (const pgid of this.live) this.killGroup(pgid);
    for (const pgid of this.live) this.tell(`-${pgid}`);
    this.live.clear();
  }

  private tell(line: string): void {
    if (this.watchdog?.write(line)) return;
    if (line.startsWith("-") || !this.available || !this.startWatchdog) return;
    // No watchdog yet, or it died (killed by someone): start one and hand it every live group.
    this.watchdog = this.startWatchdog();
    this.available = this.watchdog !== null;
    for (const pgid of this.live) if (!this.watchdog?.write(`+${pgid}`)) return;
  }
}
