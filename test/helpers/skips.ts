// Conditional skips that say whether CI may take them (issue 37 item 4). A test that can skip names why; under CI
// (CI=true) a skip the CI machine should not need (a Linux runner with util-linux, a user that is not root) is not
// silent: a failing test of its own says which capability was missing. Skips CI may take (root-only set-ups) are
// listed in the run's skip summary (build/test-skips.mjs).
import assert from "node:assert/strict";
import { it } from "node:test";

/** Whether a skip is one the CI machine must never need ("ci-must-run") or may take ("ci-may-skip"). */
export type SkipPolicy = "ci-must-run" | "ci-may-skip";

/**
 * The `skip` option of a test or suite: `false` when `can` holds, else `reason`. Under CI with policy
 * "ci-must-run", the skip also registers a failing test beside it (so the CI run fails and says why).
 */
export function skipUnless(can: boolean, reason: string, policy: SkipPolicy): string | false {
  if (can) return false;
  if (policy === "ci-must-run" && process.env.CI === "true")
    it(`CI should not need to skip: ${reason}`, () =>
      assert.fail(`this CI machine lacks what the test needs (${reason}); docs/testing.md, "Tests that can skip"`));
  return reason;
}
