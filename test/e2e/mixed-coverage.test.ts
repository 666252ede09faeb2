import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { BUNDLE, call, CLEAN_PATH, connect, linkBin, removeDir, REPO, runCli, STATE_HOME, structured, tempDir } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";
import { assertTreeUnchanged, snapshotTree } from "../helpers/tree.ts";

/** Issue 33, item 1: a check that names an unchecked framework file with a checked .ts file is never clean. */

const WIDGET = '<script lang="ts">\n  let n: number = "x";\n</script>\n\n<p>{n}</p>\n';
const PROBE = '<script setup lang="ts">\nconst count: number = "not a number";\n</script>\n\n<template>\n  <div>{{ count }}</div>\n</template>\n';

/** A project with a tsconfig over src, a clean .ts file and a .svelte and a .vue file with type errors; no script runs svelte-check or vue-tsc. */
function mixedProject(): { dir: string; cache: string; state: string } {
  const dir = projectFrom(
    {
      "package.json": JSON.stringify({ name: "mixed", private: true, type: "module", scripts: { build: "vite build", typecheck: "tsc --noEmit" } }),
      "tsconfig.json": JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler" },
        include: ["src"],
      }),
      "src/Widget.svelte": WIDGET,
      "src/Probe.vue": PROBE,
      "src/main.ts": "export const ok: number = 1;\n",
    },
    "signalint-mixed-",
  );
  linkBin(dir, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
  return { dir, cache: tempDir("signalint-cache-"), state: tempDir("signalint-state-") };
}

describe("never clean on a mix (issue 33, item 1)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  for (const framework of ["src/Widget.svelte", "src/Probe.vue"]) {
    it(`CLI: check ${framework} src/main.ts is an error naming ${framework}, exit 1`, () => {
      const { dir, cache, state } = mixedProject();
      dirs.push(dir, cache, state);
      const before = snapshotTree(dir);
      const env = { SIGNALINT_CACHE_DIR: cache, SIGNALINT_STATE_DIR: state };
      const result = runCli(["check", "--format", "response", framework, "src/main.ts"], { cwd: dir, env });
      const response = JSON.parse(result.stdout) as CheckResponse;
      assert.equal(response.status, "error");
      assert.equal(result.status, 1);
      assert.equal(response.engines.tsc.status, "ok", "tsc ran on src/main.ts");
      assert.match(response.nextStep ?? "", new RegExp(`Not clean: ${framework.replace(".", "\\.")} was not checked`));
      assert.deepEqual(
        response.notChecked?.map((note) => note.sample),
        [[framework]],
      );
      const text = runCli(["check", framework, "src/main.ts"], { cwd: dir, env });
      assert.equal(text.status, 1);
      assert.doesNotMatch(text.stdout, /No issues/);
      assert.match(text.stdout, /^Not checked: 1 file not type-checked/m);
      assertTreeUnchanged(dir, before);
    });
  }

  it("a whole-project check with an unchecked framework file is an error; a walk's stray .ts outside every program is a note", () => {
    const { dir, cache, state } = mixedProject();
    dirs.push(dir, cache, state);
    const env = { SIGNALINT_CACHE_DIR: cache, SIGNALINT_STATE_DIR: state };
    const whole = JSON.parse(runCli(["check", "--format", "response"], { cwd: dir, env }).stdout) as CheckResponse;
    assert.equal(whole.status, "error");
    assert.match(whole.nextStep ?? "", /src\/Probe\.vue, src\/Widget\.svelte were not checked/);
    // Only TypeScript files: scripts/tool.ts is outside the program, found by a walk: a note, the check clean.
    const ts = projectFrom(
      {
        "package.json": JSON.stringify({ name: "ts", private: true, scripts: { typecheck: "tsc --noEmit" } }),
        "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ["src"] }),
        "src/main.ts": "export const ok: number = 1;\n",
        "scripts/tool.ts": "export const tool = 1;\n",
      },
      "signalint-mixed-ts-",
    );
    dirs.push(ts);
    linkBin(ts, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
    const walked = JSON.parse(runCli(["check", "--format", "response"], { cwd: ts, env }).stdout) as CheckResponse;
    assert.equal(walked.status, "clean");
    assert.equal(walked.notChecked?.[0]?.sample[0], "scripts/tool.ts");
    // Named, it is a gap: nothing type-checked a file the request asked about.
    const named = runCli(["check", "--format", "response", "scripts/tool.ts", "src/main.ts"], { cwd: ts, env });
    assert.equal((JSON.parse(named.stdout) as CheckResponse).status, "error");
    assert.equal(named.status, 1);
  });

  it("MCP: check_files and after_edit_check over the .svelte file and a .ts file are errors naming it", async () => {
    const { dir, cache, state } = mixedProject();
    dirs.push(dir, cache, state);
    const session = await connect(dir, { SIGNALINT_CACHE_DIR: cache, SIGNALINT_STATE_DIR: state });
    try {
      const files = structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/Widget.svelte", "src/main.ts"] }));
      assert.equal(files.status, "error");
      assert.match(files.nextStep ?? "", /src\/Widget\.svelte was not checked/);
      const edited = structured<{ status: string; nextStep?: string; notChecked?: { sample: string[] }[] }>(
        await call(session.client, "after_edit_check", { files: ["src/Widget.svelte", "src/main.ts"] }),
      );
      assert.equal(edited.status, "error");
      assert.deepEqual(
        edited.notChecked?.map((note) => note.sample),
        [["src/Widget.svelte"]],
      );
      // The .ts file alone is checked by everything the project checks it with: clean.
      const alone = structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/main.ts"] }));
      assert.equal(alone.status, "clean");
    } finally {
      await session.close();
    }
  });

  it("hook: an edited .svelte file nothing type-checks exits 1 naming it, never a silent 0", () => {
    const { dir, cache, state } = mixedProject();
    dirs.push(dir, cache, state);
    const before = snapshotTree(dir);
    const hook = spawnSync(process.execPath, [BUNDLE, "hook"], {
      cwd: dir,
      env: {
        PATH: CLEAN_PATH,
        HOME: process.env.HOME ?? "",
        XDG_STATE_HOME: STATE_HOME,
        SIGNALINT_DAEMON: "0",
        SIGNALINT_STATE_DIR: state,
        SIGNALINT_CACHE_DIR: cache,
      },
      input: JSON.stringify({ cwd: dir, tool_input: { file_path: join(dir, "src", "Widget.svelte") } }),
      encoding: "utf8",
    });
    assert.equal(hook.status, 1, hook.stderr);
    assert.match(hook.stderr, /the check is incomplete/);
    assert.match(hook.stderr, /^Not checked: 1 file .*\(src\/Widget\.svelte\)$/m);
    assertTreeUnchanged(dir, before);
  });
});
