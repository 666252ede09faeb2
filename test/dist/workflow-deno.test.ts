import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Compare, Delta } from "../../src/core/contracts.ts";
import { call, connect, errorOf, removeDir, scratchCopy, structured, tempDir } from "../helpers.ts";
import { pausedApply } from "../helpers/paused-apply.ts";

const FILES = 6;
const original = (index: number) => `export const v${index}: number = "original ${index}";\n`;
const patched = (index: number) => `export const v${index}: number = ${index};\n`;
const patches = () =>
  Array.from({ length: FILES }, (_, index) => ({ file: `src/f${index}.ts`, originalContent: original(index), patchedContent: patched(index) }));

describe("the agent workflow under Deno (journal, fsync and test hook on the Deno runtime)", () => {
  let project: string;
  let state: string;
  const reset = () => {
    for (let index = 0; index < FILES; index++) writeFileSync(join(project, "src", `f${index}.ts`), original(index));
  };
  const states = () => [
    ...new Set(
      Array.from({ length: FILES }, (_, index) => (readFileSync(join(project, "src", `f${index}.ts`), "utf8") === original(index) ? "original" : "patched")),
    ),
  ];
  before(() => {
    project = scratchCopy("clean", "deno-workflow");
    state = tempDir("signalint-state-");
    reset();
  });
  after(() => {
    removeDir(project);
    removeDir(state);
  });

  it("snapshot, apply with delta, and compare across a restart", async () => {
    const first = await connect(project, { SIGNALINT_STATE_DIR: state }, "deno");
    let baseline = "";
    let current = "";
    try {
      baseline = structured<{ checkId: string; totalIssues: number }>(await call(first.client, "check_project")).checkId;
      const { transactionId } = structured<{ transactionId: string }>(await call(first.client, "preview_diagnostic_fix", { patches: patches() }));
      assert.equal(errorOf(await call(first.client, "apply_diagnostic_fix", { transactionId })).code, "confirmation_required");
      const applied = structured<{ check: { checkId: string }; delta: Delta }>(
        await call(first.client, "apply_diagnostic_fix", { transactionId, confirm: true }),
      );
      assert.equal(applied.delta.resolved.length, FILES);
      assert.deepEqual(states(), ["patched"]);
      current = applied.check.checkId;
    } finally {
      await first.close();
    }
    const second = await connect(project, { SIGNALINT_STATE_DIR: state }, "deno");
    try {
      const compared = structured<Compare>(await call(second.client, "compare_diagnostics", { baselineCheckId: baseline, currentCheckId: current }));
      assert.deepEqual([compared.resolved.length, compared.introduced.length, compared.netErrorDelta], [FILES, 0, -FILES]);
    } finally {
      await second.close();
    }
    reset();
  });

  it("a failure between renames rolls back; a SIGKILL between renames is rolled back at the next start", async () => {
    const failing = await connect(project, { SIGNALINT_STATE_DIR: state, SIGNALINT_TEST_JOURNAL: "fail:renamed-2" }, "deno");
    try {
      const { transactionId } = structured<{ transactionId: string }>(await call(failing.client, "preview_diagnostic_fix", { patches: patches() }));
      assert.equal(errorOf(await call(failing.client, "apply_diagnostic_fix", { transactionId, confirm: true })).code, "apply_failed");
      assert.deepEqual(states(), ["original"]);
    } finally {
      await failing.close();
    }
    const { pid, applying, closed } = await pausedApply(project, state, "renamed-2", patches(), "deno");
    assert.deepEqual(states().sort(), ["original", "patched"], "three files renamed when it was killed");
    process.kill(pid, "SIGKILL");
    await closed;
    assert.equal(await applying, "killed");
    const restarted = await connect(project, { SIGNALINT_STATE_DIR: state }, "deno");
    try {
      // tools/list does not wait for the service; a tool call does, and the service rolls back before it serves.
      await call(restarted.client, "get_loop_status");
      assert.deepEqual(states(), ["original"]);
      assert.deepEqual(
        readdirSync(join(project, "src")).filter((name) => name.includes(".signalint-")),
        [],
      );
      assert.match(restarted.stderr(), /rolled back an interrupted fix of 6 file\(s\)/);
    } finally {
      await restarted.close();
    }
  });
});
