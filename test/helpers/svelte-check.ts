import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { parseSvelteCheckOutput, svelteCheckArgs } from "../../src/engines/svelte-check.ts";
import { CLEAN_PATH } from "../helpers.ts";

/**
 * A cold run of svelte-check (the package at `svelteCheck`) on the program of `dir/tsconfig.json`, as Signalint's
 * command line runs it: each diagnostic as "file:line:col rule", sorted.
 */
export function coldSvelteCheck(dir: string, svelteCheck: string): string[] {
  const result = spawnSync(process.execPath, [join(svelteCheck, "bin", "svelte-check"), ...svelteCheckArgs(dir, join(dir, "tsconfig.json"))], {
    cwd: dir,
    encoding: "utf8",
    env: { PATH: CLEAN_PATH },
  });
  const parsed = parseSvelteCheckOutput({ ...result, exitCode: result.status, signal: null, timedOut: false, outputExceeded: false } as never, (file) => file);
  assert.ok(parsed.ok, JSON.stringify(parsed));
  return parsed.issues.map((issue) => `${issue.file}:${issue.line}:${issue.col} ${issue.rule}`).sort();
}
