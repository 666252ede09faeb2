// The processes on this host, read through /proc (Linux): the tests count what a server leaves running.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { WARM_HOST_MODE } from "../../src/typescript/host-protocol.ts";

/** A live process: its argv as one NUL-separated string and split; its parent pid, environment and cwd on demand. */
export interface HostProcess {
  pid: number;
  cmdline: string;
  argv: string[];
  ppid: () => number;
  environ: () => string;
  cwd: () => string;
}

/** Every process for which `match` holds; one that is gone meanwhile, or not ours to read, is passed over. */
export function hostProcesses(match: (process: HostProcess) => boolean): HostProcess[] {
  const found: HostProcess[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, "utf8");
      const entry: HostProcess = {
        pid: Number(name),
        cmdline,
        argv: cmdline.split("\0"),
        ppid: () => Number(/^PPid:\s+(\d+)/m.exec(readFileSync(`/proc/${name}/status`, "utf8"))?.[1]),
        environ: () => readFileSync(`/proc/${name}/environ`, "latin1"),
        cwd: () => readlinkSync(`/proc/${name}/cwd`),
      };
      if (match(entry)) found.push(entry);
    } catch {
      // Gone meanwhile, or not ours.
    }
  }
  return found;
}

/** Live warm hosts started from this test process (their command line names the host mode). */
export function warmHosts(): number[] {
  return hostProcesses((entry) => entry.argv.includes(WARM_HOST_MODE) && entry.ppid() === process.pid).map((entry) => entry.pid);
}
