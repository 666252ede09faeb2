// deno lint is an engine Signalint runs only when signalint.config.json turns it on (engines.deno): off, every
// response says `disabled`, and a project whose deno.json lints is told how to turn it on. No Deno needed here (the
// engine running: test/dist/deno-lint.test.ts).
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { removeDir, runCli, scratchCopy, tempDir } from "../helpers.ts";

const NOTE = 'not linted by deno: deno.json configures it, and Signalint runs it only with "engines": {"deno": true} in signalint.config.json';

describe("deno lint off by default", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  function check(project: string, format = "response"): { status: number | null; stdout: string } {
    const cache = tempDir("signalint-cache-");
    dirs.push(cache);
    return runCli(["check", "--format", format], { cwd: project, env: { SIGNALINT_CACHE_DIR: cache } });
  }

  it("a project whose deno.json lints: deno disabled, a note naming the files it would lint and how to turn it on", () => {
    const project = scratchCopy("deno-app", "deno-off");
    dirs.push(project);
    const response = JSON.parse(check(project).stdout) as CheckResponse;
    assert.equal(response.schemaVersion, "1.3");
    assert.deepEqual(response.engines.deno, { status: "disabled" });
    assert.deepEqual(response.notChecked, [{ reason: NOTE, count: 2, sample: ["src/main.ts", "src/shout.ts"] }]);
    // The project lints with deno and Signalint did not run it: never clean, and the next step says what to do.
    assert.equal(response.status, "error", JSON.stringify(response));
    assert.match(response.nextStep ?? "", /lints with deno lint, which Signalint did not run/);
    const text = check(project, "text").stdout;
    assert.match(text, /^- deno did not run: off unless signalint\.config\.json has "engines": \{"deno": true\}$/m);
    assert.match(text, /^Not checked: 2 files not linted by deno: deno\.json configures it/m);
  });

  it("no note when deno.json does not lint, or when the config switches deno off", () => {
    const plain = scratchCopy("deno-app", "deno-plain");
    dirs.push(plain);
    writeFileSync(join(plain, "deno.json"), JSON.stringify({ tasks: { start: "deno run main.ts" } }));
    const response = JSON.parse(check(plain).stdout) as CheckResponse;
    assert.deepEqual([response.engines.deno, response.notChecked], [{ status: "disabled" }, undefined]);
    const off = scratchCopy("deno-app", "deno-switched-off");
    dirs.push(off);
    writeFileSync(join(off, "signalint.config.json"), JSON.stringify({ engines: { deno: false } }));
    const switched = JSON.parse(check(off).stdout) as CheckResponse;
    assert.deepEqual([switched.engines.deno, switched.notChecked], [{ status: "disabled" }, undefined]);
  });

  it("on without a deno to run: engine_not_found naming how to install it, never a clean check", () => {
    const project = scratchCopy("deno-app", "deno-missing");
    dirs.push(project);
    writeFileSync(join(project, "signalint.config.json"), JSON.stringify({ engines: { deno: true } }));
    // PATH: node's directory only, so no deno a machine may have installed is found.
    const cache = tempDir("signalint-cache-");
    dirs.push(cache);
    const result = runCli(["check", "--format", "response"], { cwd: project, env: { PATH: dirname(process.execPath), SIGNALINT_CACHE_DIR: cache } });
    const response = JSON.parse(result.stdout) as CheckResponse;
    assert.deepEqual(response.engines.deno, {
      status: "error",
      code: "engine_not_found",
      message: "engines.deno is enabled in signalint.config.json but deno not found in the project's node_modules or on PATH; install it with `npm i -D deno`",
    });
    assert.equal(response.status, "error");
    assert.equal(response.notChecked, undefined, "it is on: no note saying how to turn it on");
  });
});
