import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { VUE_TSC_GUARD_LAUNCHER } from "../../src/engines/vue-tsc-guard.ts";
import { after, describe, it } from "node:test";
import { linkBin, linkPackage, removeDir, REPO, runCli, tempDir } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";
import { assertTreeUnchanged, snapshotTree } from "../helpers/tree.ts";

/**
 * Issue 33, item 7: vue-tsc run by Signalint writes nothing in the project, a nested example's node_modules included
 * (vue-tsc 2.x wrote node_modules/.vue-global-types/*.d.ts next to the config; the installed 3.x keeps them virtual).
 */

describe("vue-tsc writes nothing in the tree (issue 33, item 7)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("a workspace example with its own node_modules, checked with vue-tsc: its error found, the tree unchanged", () => {
    const dir = projectFrom(
      {
        "package.json": JSON.stringify({ name: "root", private: true, workspaces: ["examples/*"] }),
        "examples/vue-app/package.json": JSON.stringify({ name: "vue-app", private: true, scripts: { typecheck: "vue-tsc --noEmit" } }),
        "examples/vue-app/tsconfig.json": JSON.stringify({
          compilerOptions: {
            strict: true,
            noEmit: true,
            target: "es2022",
            lib: ["es2022", "dom"],
            jsx: "preserve",
            module: "esnext",
            moduleResolution: "bundler",
          },
          include: ["src/**/*.ts", "src/**/*.vue"],
        }),
        "examples/vue-app/src/Probe.vue":
          '<script setup lang="ts">\nconst count: number = "x";\n</script>\n\n<template>\n  <div>{{ count }}</div>\n</template>\n',
      },
      "signalint-vue-tree-",
    );
    const example = join(dir, "examples", "vue-app");
    // TypeScript hoisted to the root (as a workspace install does); vue and vue-tsc in the example's own node_modules.
    linkBin(dir, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
    linkBin(example, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
    linkPackage(example, "vue", join(REPO, "node_modules", "vue"));
    linkPackage(example, "vue-tsc", join(REPO, "node_modules", "vue-tsc"));
    const env = { SIGNALINT_CACHE_DIR: tempDir("signalint-cache-"), SIGNALINT_STATE_DIR: tempDir("signalint-state-") };
    dirs.push(dir, ...Object.values(env));
    const before = snapshotTree(dir);
    const result = runCli(["check", "--format", "json"], { cwd: dir, env });
    const report = JSON.parse(result.stdout) as {
      engines: { tsc: { status: string; message?: string } };
      issues: { file: string; line: number; rule: string }[];
    };
    assert.equal(report.engines.tsc.status, "ok", report.engines.tsc.message);
    assert.match(report.engines.tsc.message ?? "", /with vue-tsc/);
    assert.deepEqual(
      report.issues.map((issue) => `${issue.file}:${issue.line} ${issue.rule}`),
      ["examples/vue-app/src/Probe.vue:2 TS2322"],
    );
    assertTreeUnchanged(dir, before);
  });

  it("the guard launcher refuses TypeScript's sys.writeFile into node_modules/.vue-global-types (as vue-tsc 2.x writes) and nothing else", () => {
    const dir = tempDir("signalint-vue-guard-");
    dirs.push(dir);
    const launcher = join(dir, "guard.cjs");
    writeFileSync(launcher, VUE_TSC_GUARD_LAUNCHER);
    // What @vue/language-core 2.x's setupGlobalTypes does: ts.sys.writeFile in a try/catch, through the real TypeScript.
    const entry = join(dir, "entry.cjs");
    writeFileSync(
      entry,
      `const ts = require(${JSON.stringify(join(REPO, "node_modules", "typescript"))});
const target = ${JSON.stringify(join(dir, "node_modules", ".vue-global-types", "vue_3.5_0_0_0.d.ts"))};
let refused = "written";
try { ts.sys.writeFile(target, "export {};"); } catch (error) { refused = error.code; }
ts.sys.writeFile(${JSON.stringify(join(dir, "other.d.ts"))}, "export {};");
console.log(JSON.stringify({ refused, args: process.argv.slice(2) }));
`,
    );
    const result = spawnSync(process.execPath, [launcher, entry, "--noEmit", "-p", "tsconfig.json"], { encoding: "utf8" });
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(JSON.parse(result.stdout), { refused: "EROFS", args: ["--noEmit", "-p", "tsconfig.json"] });
    assert.equal(existsSync(join(dir, "node_modules", ".vue-global-types")), false);
    assert.equal(existsSync(join(dir, "other.d.ts")), true, "other writes pass");
  });
});
