import { runningDaemon } from "../client/status.ts";
import { diagnose, formatDoctor, type DaemonMemory } from "../service/report/doctor.ts";
import { openProject } from "../service/project/project.ts";
import { collectStats, formatStats } from "../service/history/stats.ts";
import { SignalintService } from "../service/signalint.ts";
import { defineCommand, ROOT_OPTION } from "./command.ts";

const JSON_OPTION = { type: "boolean", help: "print the report as JSON" } as const;

/** The doctor verb: config resolution (a bad config is reported, not fatal), payload mode, how each engine resolves. */
export const doctorCommand = defineCommand({
  name: "doctor",
  summary: "show config resolution and how each engine resolves",
  description:
    "Show config resolution, payload mode and how each engine resolves; a bad signalint.config.json is reported, not fatal (exit 1), as is an engine the project uses that cannot run (Yarn Plug'n'Play, not installed).",
  options: { json: JSON_OPTION, root: ROOT_OPTION },
  run: async (io, values) => {
    const configErrors: string[] = [];
    const service = await SignalintService.create(io.runtime, {
      root: values.root,
      prepareState: false,
      onConfigError: (message) => configErrors.push(message),
    });
    const report = await diagnose(service, configErrors);
    // Only asked, never started: doctor reports the daemon that runs (another client's, whatever this one's settings).
    const running = await runningDaemon(io.runtime, service.project);
    const off = service.project.settings.daemon.off ?? (io.runtime.daemon ? undefined : "this runtime has no local sockets");
    const daemon: DaemonMemory = running
      ? { running: true, pid: running.info.pid, rssBytes: running.info.rssBytes, hostsRssBytes: running.info.hostsRssBytes }
      : { running: false, ...(off ? { off } : {}) };
    report.daemon = daemon;
    io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatDoctor(report));
    return report.configErrors.length || report.problems.length ? 1 : 0;
  },
});

/** The stats verb: what the session log and the state directory say about checks run and caches. */
export const statsCommand = defineCommand({
  name: "stats",
  summary: "checks run, cache use, cache and artifact sizes",
  description: "Checks run, cache hits/misses per engine, cache and artifact sizes (from the project's state directory).",
  options: { json: JSON_OPTION, root: ROOT_OPTION },
  run: async (io, values) => {
    const project = await openProject(io.runtime, { root: values.root });
    const report = await collectStats(io.runtime, project);
    io.stdout(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatStats(report));
    return 0;
  },
});
