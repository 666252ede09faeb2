import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { fixture, REPO, runCli } from "../helpers.ts";

it("the README's real answer is what check prints on fixtures/systemic-ts", () => {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const answer = /```text\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
  assert.ok(answer.includes("fixtures/systemic-ts") || readme.includes("(`fixtures/systemic-ts`"), "the README says where the answer comes from");
  const printed = runCli(["check"], { cwd: fixture("systemic-ts") }).stdout;
  for (const line of answer.trimEnd().split("\n")) assert.ok(printed.includes(line), `check prints: ${line}`);
});
