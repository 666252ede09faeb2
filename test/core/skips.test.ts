import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "node:test";
import { skipUnless } from "../helpers/skips.ts";

const REPORTER = join(fileURLToPath(import.meta.url), "..", "..", "..", "..", "build", "test-skips.mjs");

if (process.env.SIGNALINT_SKIPS_DEMO) {
  // Run by the test below in a child process: one skip CI must not take, one it may.
  describe("demo", () => {
    it("needs script(1)", { skip: skipUnless(false, "no script(1)", "ci-must-run") }, () => {});
    it("needs root", { skip: skipUnless(false, "needs root", "ci-may-skip") }, () => {});
    it("runs", { skip: skipUnless(true, "never", "ci-must-run") }, () => {});
  });
} else {
  // A run of its own (NODE_TEST_CONTEXT would make the child report to this runner instead of printing).
  const { NODE_TEST_CONTEXT: _context, ...parentEnv } = process.env;
  const run = (ci: string) =>
    spawnSync(
      process.execPath,
      [
        "--test",
        "--test-reporter=spec",
        "--test-reporter-destination=stdout",
        `--test-reporter=${REPORTER}`,
        "--test-reporter-destination=stdout",
        fileURLToPath(import.meta.url),
      ],
      { encoding: "utf8", env: { ...parentEnv, SIGNALINT_SKIPS_DEMO: "1", CI: ci, GITHUB_STEP_SUMMARY: "" } },
    );

  describe("conditional skips (issue 37 item 4)", () => {
    it("outside CI: both skips taken, the run passes, and the summary counts them by reason", () => {
      const result = run("");
      assert.equal(result.status, 0, result.stdout);
      assert.match(result.stdout, /Skipped: 2 test\(s\), by reason:\n- no script\(1\) \(1\): .*needs script\(1\)\n- needs root \(1\): .*needs root/);
    });

    it("under CI=true: a skip CI should not need fails the run, naming it; a skip CI may take does not", () => {
      const result = run("true");
      assert.equal(result.status, 1, result.stdout);
      assert.match(result.stdout, /✖ CI should not need to skip: no script\(1\)/);
      assert.doesNotMatch(result.stdout, /CI should not need to skip: needs root/);
      assert.match(result.stdout, /Skipped: 2 test\(s\)/);
    });
  });
}
