import { dirname, relative, resolve } from "node:path";
import { missingGenerated } from "../../engines/generated-configs.ts";
import { parseSvelteCheckOutput, svelteCheckArgs } from "../../engines/svelte-check.ts";
import { outsideRoot } from "./outside-root.ts";
import { configFileName } from "../../engines/tsconfig.ts";
import type { ParseOutcome, ResolvedEngine } from "../../engines/types.ts";
import type { SpawnResult } from "../../runtime/types.ts";
import { CheckCancelledError, throwIfCancelled } from "../job/check-events.ts";
import { outsideRootIssue } from "../../engines/tsc.ts";
import type { ChangeHint } from "../../typescript/change-hint.ts";
import type { WarmTsPool } from "../../typescript/warm-pool.ts";
import type { EngineJob } from "../job/engine-job.ts";
import type { ProgramRun } from "./tsc-selection.ts";

// The programs of a check that are not tsc's own: a config needing a framework's missing generated config (not run),
// and a config the project's scripts run with svelte-check (run by it).

/** How a stand-in type-checker is spawned on the command line and its output parsed (tsc-runner's TscSpawn). */
export type StandInSpawn = (
  args: string[],
  configFile: string,
  options: { checker: ResolvedEngine; parse: (result: SpawnResult) => ParseOutcome },
) => Promise<ParseOutcome>;

/**
 * The runs whose configs have what they extend or include; a program that needs a framework's generated config that is
 * missing (a fresh clone's `.svelte-kit/tsconfig.json`) is not run: its TS5083 and `./$types` TS2307 are not the
 * project's errors. It is a failure of its own saying what to run (never run here), so the check is never clean.
 */
export async function withoutGeneratedGaps(job: EngineJob, runs: readonly ProgramRun[], outcomes: [string, ParseOutcome][]): Promise<ProgramRun[]> {
  const gaps = await Promise.all(runs.map((run) => missingGenerated(job.runtime, job.root, run.config)));
  runs.forEach((run, index) => {
    const gap = gaps[index];
    if (gap) outcomes.push([run.config, { ok: false, code: "engine_failed", message: gap.action }]);
  });
  return runs.filter((_, index) => !gaps[index]);
}

/** How a svelte-check program may be kept warm: the pool its host lives in, the watch's hint, the memory bound. */
export interface WarmSvelte {
  pool: WarmTsPool;
  hint: ChangeHint | null;
  memoryLimitBytes: number;
}

/**
 * A program the project's scripts run with svelte-check: the installed svelte-check on the program's config from its
 * directory (paths it prints are relative to that workspace) — kept warm in a host when `warm` allows
 * (typescript/warm-svelte.ts), else on the command line. `mode` says which answered.
 */
export async function runSvelteCheck(
  job: EngineJob,
  tsconfig: string,
  checker: ResolvedEngine,
  spawn: StandInSpawn,
  warm: WarmSvelte | null,
): Promise<{ outcome: ParseOutcome; mode: string }> {
  throwIfCancelled(job.signal);
  const workspace = dirname(tsconfig);
  const configFile = configFileName(job.root, tsconfig);
  const outside = outsideRoot(job, configFile);
  if (warm && checker.packageDir) {
    job.onEvent?.({ kind: "tsc-phase", phase: "warm check", tsconfig: relative(job.root, tsconfig) || tsconfig });
    const answer = await warm.pool.check({
      kind: "svelte",
      typescriptDir: checker.packageDir,
      configPath: tsconfig,
      configFile,
      timeoutMs: job.timeoutMs,
      memoryLimitBytes: warm.memoryLimitBytes,
      signal: job.signal,
      toRelative: job.toRelative,
      outside: (issue, file) => outsideRootIssue(issue, file, outside),
      hint: warm.hint,
    });
    if (answer.status === "cancelled") throw new CheckCancelledError();
    if (answer.status === "ok") return { outcome: { ok: true, issues: answer.issues }, mode: `svelte-check-warm-${answer.info.reuse}` };
    // A timeout is the command line's too (it would run as long): said as one.
    if (answer.status === "timeout")
      return { outcome: { ok: false, code: "timeout", message: `svelte-check did not complete within ${job.timeoutMs / 1000}s` }, mode: "svelte-check" };
  }
  job.onEvent?.({ kind: "tsc-phase", phase: "command line", tsconfig: relative(job.root, tsconfig) || tsconfig });
  const parse = (result: SpawnResult) =>
    parseSvelteCheckOutput(
      result,
      (file) => job.toRelative(resolve(workspace, file)),
      (file) => outside(resolve(workspace, file)),
    );
  return { outcome: await spawn(svelteCheckArgs(workspace, tsconfig), configFile, { checker, parse }), mode: "svelte-check" };
}
