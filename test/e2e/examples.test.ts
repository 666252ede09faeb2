import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { it } from "node:test";
import { fixture, REPO } from "../helpers.ts";

it("the code-mode harness example builds a fix plan from structuredContent alone", () => {
  const result = spawnSync(process.execPath, [join(REPO, "examples", "code-mode-harness.mjs"), fixture("systemic-ts")], {
    encoding: "utf8",
    cwd: REPO,
    timeout: 60_000,
  });
  assert.equal(result.status, 0, result.stderr);
  const [planText, measurement] = result.stdout.split("\nmeasurement");
  const plan = JSON.parse(planText as string) as { total: number; steps: { files: Record<string, number[]> }[]; otherIssues: Record<string, string[]> };
  assert.equal(plan.total, 12);
  assert.equal(Object.keys(plan.steps[0]?.files ?? {}).length, 10, "every location of the top cluster");
  assert.equal(Object.values(plan.otherIssues).flat().length, 2);
  const direct = /direct tool calls: (\d+) B in (\d+) round trips/.exec(measurement ?? "");
  const harness = /code-mode harness: (\d+) B in 1 round trip/.exec(measurement ?? "");
  assert.ok(direct && harness);
  assert.ok(Number(harness[1]) < Number(direct[1]));
  const { checkId } = plan as unknown as { checkId: string };
  const again = spawnSync(process.execPath, [join(REPO, "examples", "code-mode-harness.mjs"), fixture("systemic-ts"), checkId], {
    encoding: "utf8",
    cwd: REPO,
    timeout: 60_000,
  });
  assert.equal(again.status, 0, again.stderr);
  const next = JSON.parse(again.stdout.split("\nmeasurement")[0] as string) as { progress: unknown };
  assert.deepEqual(next.progress, { resolved: 0, introduced: [], unchanged: 12, netErrorDelta: 0 }, "the fix loop compares with the previous run's snapshot");
});
