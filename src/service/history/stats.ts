import { join } from "node:path";
import type { Runtime } from "../../runtime/types.ts";
import { readCheckRecords } from "./session-log.ts";
import { isKind } from "../project/state-kinds.ts";
import { ifMissing } from "../../core/errors.ts";

/** What `signalint-mcp stats` reports from the state directory. */
export interface StatsReport {
  stateDir: string;
  checks: { total: number; project: number; files: number; medianMs: number | null; lastAt: string | null };
  cache: Record<string, { hits: number; misses: number; modes: Record<string, number> }>;
  resultCache: { entries: number; bytes: number };
  artifacts: number;
}

async function sizeOf(runtime: Runtime, dir: string): Promise<{ entries: number; bytes: number }> {
  let entries = 0;
  let bytes = 0;
  for (const shard of await runtime.readDir(dir).catch(ifMissing([]))) {
    if (!shard.isDirectory) continue;
    for (const file of await runtime.readDir(join(dir, shard.name)).catch(ifMissing([]))) {
      entries++;
      bytes += (await runtime.stat(join(dir, shard.name, file.name)))?.size ?? 0;
    }
  }
  return { entries, bytes };
}

/** Aggregate the check records in session.jsonl and the sizes of the caches. */
export async function collectStats(runtime: Runtime, project: { stateDir: string; lintCacheDir: string }): Promise<StatsReport> {
  const { stateDir } = project;
  // Entries of the wrong kind count as none: stats only reads (the owner sets them aside).
  const log = join(stateDir, "session.jsonl");
  const text = (await isKind(runtime, log, "file")) ? await runtime.readText(log).catch(ifMissing("")) : "";
  const records = readCheckRecords(text);
  const cache: StatsReport["cache"] = {};
  for (const { check } of records) {
    for (const [engine, use] of Object.entries(check.cache ?? {})) {
      const total = (cache[engine] ??= { hits: 0, misses: 0, modes: {} });
      total.hits += use.hits;
      total.misses += use.misses;
      if (use.mode) total.modes[use.mode] = (total.modes[use.mode] ?? 0) + 1;
    }
  }
  const durations = records.map(({ check }) => check.durationMs).sort((a, b) => a - b);
  return {
    stateDir,
    checks: {
      total: records.length,
      project: records.filter(({ check }) => check.kind === "project").length,
      files: records.filter(({ check }) => check.kind === "files").length,
      medianMs: durations.length ? (durations[Math.floor(durations.length / 2)] as number) : null,
      lastAt: records.at(-1)?.at ?? null,
    },
    cache,
    resultCache: await sizeOf(runtime, project.lintCacheDir),
    artifacts: (await isKind(runtime, join(stateDir, "artifacts"), "directory"))
      ? (await runtime.readDir(join(stateDir, "artifacts")).catch(ifMissing([]))).length
      : 0,
  };
}

/** Human-readable stats. */
export function formatStats(report: StatsReport): string {
  const lines = [
    `state dir      ${report.stateDir}`,
    `checks         ${report.checks.total} (${report.checks.project} check_project, ${report.checks.files} check_files), median ${report.checks.medianMs ?? "-"} ms, last ${report.checks.lastAt ?? "never"}`,
    `result cache   ${report.resultCache.entries} entries, ${(report.resultCache.bytes / 1024).toFixed(1)} KiB; artifacts ${report.artifacts}`,
    "cache use by engine (inputs reused / re-examined):",
  ];
  for (const [engine, use] of Object.entries(report.cache)) {
    const modes = Object.entries(use.modes)
      .map(([mode, count]) => `${mode} ×${count}`)
      .join(", ");
    lines.push(`  ${engine.padEnd(7)} ${use.hits} / ${use.misses}${modes ? `  (${modes})` : ""}`);
  }
  return `${lines.join("\n")}\n`;
}
