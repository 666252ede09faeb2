import { connectDaemon, DaemonConnection, waitForExit } from "../client/connection.ts";
import { runningDaemon } from "../client/status.ts";
import { quoteInput } from "../core/errors.ts";
import { identifyDaemon, readDaemonRecord, signalDaemon } from "../daemon/record.ts";
import type { DaemonSupport } from "../runtime/types.ts";
import { openProject } from "../service/project/project.ts";
import { defineCommand, ROOT_OPTION } from "./command.ts";
import type { CliIo } from "./io.ts";
import { UsageError } from "./usage.ts";

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * Stop the recorded daemon (it finishes nothing: calls in flight fail as daemon_lost). Only a pid the OS identifies
 * as the recorded daemon (its start time and command line) is signalled: a stale record's pid, maybe reused, is
 * "none"; a live one the OS cannot identify (no start time to compare) is left alone.
 */
async function stopDaemon(io: CliIo, support: DaemonSupport, stateDir: string): Promise<"stopped" | "none" | "unidentified"> {
  const record = await readDaemonRecord(io.runtime, stateDir);
  const identity = record ? await identifyDaemon(io.runtime, record) : "gone";
  if (!record || identity === "gone" || identity === "other") return "none";
  if (!(await signalDaemon(io.runtime, support, record, "SIGTERM"))) return "unidentified";
  if (!(await waitForExit(io.runtime, record.pid, 10_000))) await signalDaemon(io.runtime, support, record, "SIGKILL");
  return "stopped";
}

async function status(io: CliIo, stateDir: string, root: string, json: boolean): Promise<number> {
  const running = await runningDaemon(io.runtime, { stateDir, root });
  if (!running) {
    io.stdout(json ? `${JSON.stringify({ running: false, root })}\n` : `no daemon is running for ${root}\n`);
    return 1;
  }
  const { record, info } = running;
  const { settings: _settings, ...facts } = info;
  const report = { running: true, ...facts, socket: record.socket, startedAt: record.startedAt, version: record.version };
  io.stdout(
    json
      ? `${JSON.stringify(report, null, 2)}\n`
      : `daemon pid ${info.pid} for ${root} (version ${record.version}, since ${record.startedAt})\n  socket     ${record.socket}\n  memory     ${mb(info.rssBytes)} (warm TypeScript hosts ${mb(info.hostsRssBytes)})\n`,
  );
  return 0;
}

/** The daemon verb: status, stop or restart the project's daemon. */
export const daemonCommand = defineCommand({
  name: "daemon",
  summary: "status, stop or restart the project's daemon",
  positionals: "status|stop|restart",
  description:
    "The project's daemon keeps its warm TypeScript programs, file watch and history for every client (MCP sessions, check, hook). " +
    "status: its pid, socket and memory (exit 1 when none runs); stop: end it (the next client starts a new one); restart: stop, then start one.",
  options: { json: { type: "boolean", help: "print status as JSON" }, root: ROOT_OPTION },
  run: async (io, values, positionals) => {
    const action = positionals[0] ?? "status";
    if (!["status", "stop", "restart"].includes(action) || positionals.length > 1)
      throw new UsageError(`daemon takes one of status, stop, restart, not ${quoteInput(positionals.join(" "))}`);
    const project = await openProject(io.runtime, { root: values.root });
    const support = io.runtime.daemon;
    if (!support) {
      io.runtime.writeStderr("signalint-mcp: this runtime has no local sockets, so no daemon runs here (checks run in-process)\n");
      return action === "status" ? 1 : 0;
    }
    if (action === "status") return status(io, project.stateDir, project.root, values.json);
    const stopped = await stopDaemon(io, support, project.stateDir);
    if (stopped === "unidentified") {
      io.runtime.writeStderr(`signalint-mcp: the recorded daemon's process cannot be identified on this system, so it is not signalled (it exits once idle)\n`);
      return 1;
    }
    if (action === "stop") {
      io.stdout(stopped === "stopped" ? `stopped the daemon for ${project.root}\n` : `no daemon was running for ${project.root}\n`);
      return 0;
    }
    const started = await connectDaemon(io.runtime, support, project);
    if (!(started instanceof DaemonConnection)) {
      io.runtime.writeStderr(`signalint-mcp: the daemon could not start: ${started.reason}\n`);
      return 1;
    }
    started.close();
    io.stdout(`daemon pid ${started.welcome.pid} serves ${project.root}\n`);
    return 0;
  },
});
