import assert from "node:assert/strict";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { parseSvelteCheckOutput } from "../../src/engines/svelte-check.ts";
import { tscInvocations } from "../../src/engines/tsc-scripts.ts";
import { coverageNotes } from "../../src/service/tsc/tsc-selection.ts";
import { linkBin, linkPackage, removeDir, REPO, runCli, tempDir } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";
import { coldSvelteCheck } from "../helpers/svelte-check.ts";
import { assertTreeUnchanged, snapshotTree } from "../helpers/tree.ts";

/** Issue 33, item 2: svelte-check runs the programs the project's scripts run it on, as it prints them. */

const SVELTE_CHECK = join(REPO, "node_modules", "svelte-check");

/** A Svelte app: a component with a type error and an a11y warning, a .ts file with a type error, one clean .ts file. */
function svelteProject(scripts: Record<string, string>, extra: Record<string, string> = {}): { dir: string; cache: string; state: string } {
  const dir = projectFrom(
    {
      "package.json": JSON.stringify({ name: "svelte-app", private: true, type: "module", scripts }),
      "tsconfig.json": JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler", verbatimModuleSyntax: true },
        include: ["src/**/*.ts", "src/**/*.svelte"],
      }),
      "src/Widget.svelte":
        '<script lang="ts">\n  import { label } from "./lib";\n  let n: number = "x";\n</script>\n\n<p>{n} {label.toFixed()}</p>\n<img src="a.png">\n',
      "src/lib.ts": 'export const label: string = "a";\nexport const bad: number = "b";\n',
      "src/main.ts": "export const ok: number = 1;\n",
      ...extra,
    },
    "signalint-svelte-",
  );
  linkBin(dir, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
  linkPackage(dir, "svelte", join(REPO, "node_modules", "svelte"));
  linkPackage(dir, "svelte-check", SVELTE_CHECK);
  return { dir, cache: tempDir("signalint-cache-"), state: tempDir("signalint-state-") };
}

/** What the project's installed svelte-check prints for its program, as "file:line:col rule". */
function rawSvelteCheck(dir: string): string[] {
  return coldSvelteCheck(dir, SVELTE_CHECK);
}

/**
 * One CLI check in json: its exit status, what the response says (the json report carries its status, engines and
 * notChecked as they are) and every issue as "file:line:col rule".
 */
function check(
  dir: string,
  env: Record<string, string>,
  args: string[] = [],
): { status: number | null; response: Pick<CheckResponse, "status" | "engines" | "notChecked">; issues: string[] } {
  const json = runCli(["check", "--format", "json", ...args], { cwd: dir, env });
  const report = JSON.parse(json.stdout) as Pick<CheckResponse, "status" | "engines" | "notChecked"> & {
    issues: { file: string; line: number; col: number; rule: string }[];
  };
  return {
    status: json.status,
    response: report,
    issues: report.issues.map((issue) => `${issue.file}:${issue.line}:${issue.col} ${issue.rule}`).sort(),
  };
}

describe("svelte-check as the program's type-checker (issue 33, item 2)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("scripts: svelte-check and svelte-kit sync && svelte-check name their program; --no-tsconfig and --watch none", () => {
    assert.deepEqual(tscInvocations("svelte-kit sync && svelte-check --tsconfig ./tsconfig.json --threshold error"), [
      { tool: "svelte-check", build: false, projects: ["./tsconfig.json"] },
    ]);
    assert.deepEqual(tscInvocations("svelte-check"), [{ tool: "svelte-check", build: false, projects: [] }]);
    assert.deepEqual(tscInvocations("svelte-check --workspace app --tsconfig=tsconfig.app.json"), [
      { tool: "svelte-check", build: false, projects: ["app/tsconfig.app.json"] },
    ]);
    assert.deepEqual(tscInvocations("svelte-check --no-tsconfig"), []);
    assert.deepEqual(tscInvocations("svelte-check --watch"), []);
  });

  it("coverage notes: a checker's program that gave no answer is named as such, one that answered covers its files", () => {
    const notes = coverageNotes(
      [],
      ["/p/app/A.svelte", "/p/web/B.vue", "/p/other/C.svelte", "/p/app/inner/D.svelte"],
      { svelte: ["/p/app/inner"] },
      {
        svelteInstalled: true,
        failed: { svelte: ["/p/app"], vue: ["/p/web"] },
      },
    );
    assert.deepEqual(notes, [
      {
        reason:
          'not type-checked: .svelte files (svelte-check is installed but no package.json script runs it: add one (`"check": "svelte-check --tsconfig ./tsconfig.json"`) and Signalint runs it on that program)',
        files: ["/p/other/C.svelte"],
      },
      {
        reason: "not type-checked: .svelte files (the project's svelte-check run on their program did not answer: engines.tsc says why)",
        files: ["/p/app/A.svelte"],
      },
      { reason: "not type-checked: .vue files (the project's vue-tsc run on their program did not answer: engines.tsc says why)", files: ["/p/web/B.vue"] },
    ]);
  });

  it("the machine-verbose parser is strict: counts must match, a FAILURE line or a stray line is an error", () => {
    const run = (stdout: string, exitCode = 1) =>
      parseSvelteCheckOutput({ stdout, stderr: "", exitCode, signal: null, timedOut: false, outputExceeded: false } as never, (file) => file);
    const diagnostic =
      '1 {"type":"ERROR","filename":"src/a.svelte","start":{"line":1,"character":6},"end":{"line":1,"character":7},"message":"m","code":2322,"source":"ts"}';
    const ok = run(`1 START "/p"\n${diagnostic}\n1 COMPLETED 2 FILES 1 ERRORS 0 WARNINGS 1 FILES_WITH_PROBLEMS\n`);
    assert.deepEqual(ok, {
      ok: true,
      issues: [{ file: "src/a.svelte", line: 2, col: 7, engine: "tsc", rule: "TS2322", severity: "error", message: "m", fixable: false }],
    });
    assert.equal(run(`1 START "/p"\n${diagnostic}\n1 COMPLETED 2 FILES 2 ERRORS 0 WARNINGS 1 FILES_WITH_PROBLEMS\n`).ok, false);
    assert.equal(run(`1 START "/p"\nLoading svelte-check\n1 COMPLETED 2 FILES 0 ERRORS 0 WARNINGS 0 FILES_WITH_PROBLEMS\n`).ok, false);
    assert.deepEqual(run('1 START "/p"\n1 FAILURE "Cannot find tsconfig"\n'), {
      ok: false,
      code: "engine_failed",
      message: 'svelte-check failed: "Cannot find tsconfig"',
    });
    assert.equal(run("", 1).ok, false, "no output is never an empty success");
  });

  for (const script of ["svelte-check --tsconfig ./tsconfig.json", "svelte-kit sync && svelte-check"]) {
    it(`"check": "${script}": the check equals the project's svelte-check, .svelte and .ts positions, nothing written`, () => {
      const { dir, cache, state } = svelteProject({ check: script });
      dirs.push(dir, cache, state);
      const env = { SIGNALINT_CACHE_DIR: cache, SIGNALINT_STATE_DIR: state };
      const raw = rawSvelteCheck(dir);
      assert.ok(raw.includes("src/Widget.svelte:3:7 TS2322"), raw.join("\n"));
      assert.ok(raw.includes("src/lib.ts:2:14 TS2322"), raw.join("\n"));
      const before = snapshotTree(dir);
      const whole = check(dir, env);
      assert.deepEqual(whole.issues, raw);
      assert.equal(whole.response.status, "issues_found");
      assert.equal(whole.response.engines.tsc.status, "ok");
      assert.match(whole.response.engines.tsc.message ?? "", /tsconfig\.json with svelte-check/);
      assert.equal(whole.response.notChecked, undefined, "svelte-check checked the .svelte file");
      const named = check(dir, env, ["src/Widget.svelte", "src/main.ts"]);
      assert.deepEqual(
        named.issues,
        raw.filter((key) => key.startsWith("src/Widget.svelte:")),
      );
      assert.equal(named.response.status, "issues_found");
      assertTreeUnchanged(dir, before);
    });
  }

  it("svelte-check installed but no script runs it: the .svelte note says how to turn it on", () => {
    const { dir, cache, state } = svelteProject({ typecheck: "tsc --noEmit" });
    dirs.push(dir, cache, state);
    const { status, response } = check(dir, { SIGNALINT_CACHE_DIR: cache, SIGNALINT_STATE_DIR: state }, ["src/Widget.svelte", "src/main.ts"]);
    assert.equal(status, 1);
    assert.equal(response.status, "error");
    assert.match(response.notChecked?.[0]?.reason ?? "", /svelte-check is installed but no package\.json script runs it: add one/);
  });
});
