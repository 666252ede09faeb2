import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { call, connect, fixture, gone, linkBin, removeDir, scratchCopy, structured } from "../helpers.ts";

/** A copy of the sparse fixture (1 tsc error) whose oxlint (or tsc) is a misbehaving script. */
async function checkWithFault(script: string, engine: "oxlint" | "tsc", config: object = {}) {
  const project = scratchCopy("sparse", `fault-${script}`);
  linkBin(project, engine, fixture(`fault-engines/${script}.cjs`));
  writeFileSync(join(project, "signalint.config.json"), JSON.stringify(config));
  const pidFile = join(project, "pids.txt");
  const session = await connect(project, { SIGNALINT_FAULT_PIDS: pidFile });
  try {
    const started = Date.now();
    const response = structured<CheckResponse>(await call(session.client, "check_project"));
    const ping = await call(session.client, "ping");
    assert.equal(ping.content[0]?.type === "text" && ping.content[0].text, "pong", "server stays alive");
    return { response, elapsedMs: Date.now() - started, project, pidFile };
  } finally {
    await session.close();
  }
}

describe("misbehaving engines", () => {
  const projects: string[] = [];
  after(() => projects.forEach(removeDir));

  it("a hanging engine times out, its whole process tree is killed, other engines' results survive", async () => {
    const { response, elapsedMs, project, pidFile } = await checkWithFault("hang", "oxlint", { timeoutsMs: { oxlint: 1000 } });
    projects.push(project);
    assert.deepEqual(response.engines.oxlint, {
      status: "error",
      code: "timeout",
      message: "oxlint did not complete within 1s (timeoutsMs.oxlint in signalint.config.json raises the limit)",
    });
    assert.equal(response.engines.tsc.status, "ok");
    assert.equal(response.totalIssues, 1, "tsc's diagnostic survives");
    assert.equal(response.status, "error", "an engine error makes the check an error; the other engines' issues are kept");
    assert.ok(elapsedMs < 20_000, `returned after ${elapsedMs} ms`);
    const pids = readFileSync(pidFile, "utf8").trim().split("\n").map(Number);
    assert.equal(pids.length, 2);
    for (const pid of pids) assert.ok(await gone(pid, 5000), `process ${pid} of the hanging engine is gone`);
  });

  it("an engine printing 20 MiB is stopped with engine_output_exceeded", async () => {
    const { response, project } = await checkWithFault("flood", "oxlint");
    projects.push(project);
    assert.deepEqual(response.engines.oxlint, { status: "error", code: "engine_output_exceeded", message: "oxlint output exceeded the 10 MiB limit" });
    assert.equal(response.totalIssues, 1);
  });

  it("garbage output is an engine error naming what was printed, never an empty success", async () => {
    const { response, project } = await checkWithFault("garbage", "oxlint");
    projects.push(project);
    assert.equal(response.engines.oxlint.status, "error");
    assert.equal(response.engines.oxlint.code, "engine_output_invalid");
    assert.match(response.engines.oxlint.message ?? "", /not JSON.*Welcome to the engine/);
  });

  it("a crashing engine is an engine error carrying its stderr", async () => {
    const { response, project } = await checkWithFault("crash", "oxlint");
    projects.push(project);
    assert.equal(response.engines.oxlint.status, "error");
    assert.match(response.engines.oxlint.message ?? "", /exit 101.*engine panicked/);
  });

  it("garbage from tsc is an error, and with no other issues the check is not 'clean'", async () => {
    const { response, project } = await checkWithFault("garbage", "tsc");
    projects.push(project);
    assert.equal(response.engines.tsc.status, "error");
    assert.match(response.engines.tsc.message ?? "", /unexpected line.*Welcome to the engine/);
    assert.equal(response.status, "error");
    assert.match(response.nextStep ?? "", /incomplete/);
  });

  it("a crashing tsc is an error carrying its stderr", async () => {
    const { response, project } = await checkWithFault("crash", "tsc");
    projects.push(project);
    assert.equal(response.engines.tsc.status, "error");
    assert.match(response.engines.tsc.message ?? "", /engine panicked/);
  });
});
