import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { removeDir, runCli, scratchCopy } from "../helpers.ts";

function checkJson(project: string, args: string[] = []): { status: number | null; response: CheckResponse } {
  const run = runCli(["check", ...args, "--format", "json"], { cwd: project });
  return { status: run.status, response: JSON.parse(run.stdout) as CheckResponse };
}

describe("tsconfig parsing (jsonc-parser)", () => {
  const projects: string[] = [];
  after(() => projects.forEach(removeDir));

  it("recognises a solution-style tsconfig.json that starts with a UTF-8 BOM and builds its references", () => {
    const project = scratchCopy("references", "bom");
    projects.push(project);
    const plain = checkJson(project);
    const config = join(project, "tsconfig.json");
    writeFileSync(config, `\uFEFF${readFileSync(config, "utf8")}`);
    const bom = checkJson(project);
    assert.equal(plain.response.totalIssues, 5);
    assert.equal(bom.status, 1);
    assert.equal(bom.response.status, "issues_found");
    assert.deepEqual(bom.response.engines.tsc, plain.response.engines.tsc);
    assert.deepEqual(bom.response.clusters, plain.response.clusters);
  });

  it("never answers clean for a tsconfig.json that does not parse: tsc reports the syntax error", () => {
    const project = scratchCopy("references", "bad-tsconfig");
    projects.push(project);
    writeFileSync(join(project, "tsconfig.json"), '{\n  "files": [],\n  "references": [{ "path": "./packages/core" } { "path": "./packages/app" }]\n}\n');
    const { status, response } = checkJson(project);
    assert.notEqual(response.status, "clean");
    assert.equal(status, 1);
    assert.ok(response.remainingIssues.some((issue) => issue.rule === "TS1005" && issue.file === "tsconfig.json"), JSON.stringify(response.remainingIssues));
  });
});
