// The cause corpus (test/cause-corpus.ts) through the real service on the warm path: each scenario's edit gives the
// expected clusters naming the expected declarations, on TypeScript 5.9 and TypeScript 7 alike, and for the
// scenarios with a library, also when that library is a referenced project.
import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { CAUSE_SCENARIOS } from "../cause-corpus.ts";
import { compareRun, runCauseScenario } from "../cause-corpus-run.ts";
import { REPO } from "../helpers.ts";

const TYPESCRIPTS = [
  ["TypeScript 5.9", join(REPO, "node_modules", "typescript")],
  ["TypeScript 7", join(REPO, "node_modules", "typescript7")],
] as const;

for (const [label, typescriptDir] of TYPESCRIPTS) {
  describe(`cause corpus (${label}, warm program)`, () => {
    for (const scenario of CAUSE_SCENARIOS) {
      it(scenario.name, async () => {
        const run = await runCauseScenario(scenario, typescriptDir);
        assert.match(run.mode, /^warm-/);
        assert.deepEqual(compareRun(scenario, run), []);
      });
    }
  });
}
describe("cause corpus (TypeScript 5.9, warm project references)", () => {
  for (const name of ["changed member type", "removed member", "mixed causes under one interface", "why: hub edit of `User.id` and `makeUser(id)`"]) {
    const scenario = CAUSE_SCENARIOS.find((candidate) => candidate.name === name);
    it(name, async () => {
      assert.ok(scenario);
      const run = await runCauseScenario(scenario, TYPESCRIPTS[0][1], { references: true });
      assert.match(run.mode, /^warm-/);
      const expected = { ...scenario, expect: scenario.expect.map((text) => text.replace(/\(src\//, "(lib/src/").replace(/^src\//, "lib/src/")) };
      assert.deepEqual(compareRun(expected, run), []);
    });
  }
});
