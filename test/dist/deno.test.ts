import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { call, connect, fixture, gone, linkBin, removeDir, scratchCopy, structured } from "../helpers.ts";

/** A check's content without the per-check id. */
function comparable(response: CheckResponse): Omit<CheckResponse, "checkId"> {
  const { checkId: _id, ...rest } = response;
  return rest;
}

describe("the bundle under Deno (Deno runtime adapter)", () => {
  const projects: string[] = [];
  after(() => projects.forEach(removeDir));

  for (const name of ["systemic-ts", "references", "eslint-flat"]) {
    it(`${name}: same result as under Node`, async () => {
      const results: CheckResponse[] = [];
      for (const runtime of ["node", "deno"] as const) {
        const session = await connect(fixture(name), {}, runtime);
        try {
          results.push(structured<CheckResponse>(await call(session.client, "check_project")));
        } finally {
          await session.close();
        }
      }
      assert.ok((results[0]?.totalIssues ?? 0) > 0);
      assert.deepEqual(comparable(results[1] as CheckResponse), comparable(results[0] as CheckResponse));
    });
  }

  it("kills a hanging engine's process tree on timeout", async () => {
    const project = scratchCopy("sparse", "deno-hang");
    projects.push(project);
    linkBin(project, "oxlint", fixture("fault-engines/hang.cjs"));
    writeFileSync(join(project, "signalint.config.json"), JSON.stringify({ timeoutsMs: { oxlint: 1000 } }));
    const pidFile = join(project, "pids.txt");
    const session = await connect(project, { SIGNALINT_FAULT_PIDS: pidFile }, "deno");
    try {
      const response = structured<CheckResponse>(await call(session.client, "check_project"));
      assert.deepEqual(response.engines.oxlint, {
        status: "error",
        code: "timeout",
        message: "oxlint did not complete within 1s (timeoutsMs.oxlint in signalint.config.json raises the limit)",
      });
      assert.equal(response.totalIssues, 1);
      for (const pid of readFileSync(pidFile, "utf8").trim().split("\n").map(Number)) assert.ok(await gone(pid, 5000), `process ${pid} is gone`);
    } finally {
      await session.close();
    }
  });

  it("stops an engine that floods its output", async () => {
    const project = scratchCopy("sparse", "deno-flood");
    projects.push(project);
    linkBin(project, "oxlint", fixture("fault-engines/flood.cjs"));
    const session = await connect(project, {}, "deno");
    try {
      const response = structured<CheckResponse>(await call(session.client, "check_project"));
      assert.equal(response.engines.oxlint.code, "engine_output_exceeded");
    } finally {
      await session.close();
    }
  });
});
