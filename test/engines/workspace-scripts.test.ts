import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { biomeMaxDiagnostics, parseBiomeOutput } from "../../src/engines/biome.ts";
import { biomeInvocations } from "../../src/engines/biome-scripts.ts";
import type { SpawnResult } from "../../src/runtime/types.ts";
import { tscInvocations } from "../../src/engines/tsc-scripts.ts";
import { workspaceRun } from "../../src/engines/workspace-runs.ts";

/** Issue 33 item 4: which packages a root script's workspace runner runs a command in, and Biome's lint scripts. */

describe("workspace runners before a command", () => {
  it("reads recursive runs and filters of pnpm, npm, Yarn and lerna", () => {
    assert.deepEqual(workspaceRun(["pnpm", "-r", "exec"]), { filters: [] });
    assert.deepEqual(workspaceRun(["pnpm", "--recursive", "--parallel", "exec"]), { filters: [] });
    assert.deepEqual(workspaceRun(["pnpm", "--filter", "docs...", "exec"]), { filters: ["docs"] });
    assert.deepEqual(workspaceRun(["pnpm", "-F", "./packages/**", "--filter=@scope/*", "exec"]), { filters: ["./packages/**", "@scope/*"] });
    assert.deepEqual(workspaceRun(["npm", "exec", "--workspaces", "--"]), { filters: [] });
    assert.deepEqual(workspaceRun(["npm", "exec", "-w", "a", "--"]), { filters: ["a"] });
    assert.deepEqual(workspaceRun(["yarn", "workspaces", "foreach", "-A", "exec"]), { filters: [] });
    assert.deepEqual(workspaceRun(["yarn", "workspace", "b", "exec"]), { filters: ["b"] });
    assert.deepEqual(workspaceRun(["lerna", "exec", "--scope", "a", "--"]), { filters: ["a"] });
  });

  it("a runner that runs the command once, where the script runs, is no workspace run", () => {
    assert.equal(workspaceRun([]), null);
    assert.equal(workspaceRun(["npx"]), null);
    assert.equal(workspaceRun(["pnpm", "exec"]), null);
    // pnpm's -w is the workspace root, not a package selection.
    assert.equal(workspaceRun(["pnpm", "-w", "exec"]), null);
  });

  it("a type-checker run through a runner carries the packages; without one, none", () => {
    assert.deepEqual(tscInvocations("pnpm -r exec tsc --noEmit"), [{ tool: "tsc", build: false, projects: [], packages: { filters: [] } }]);
    assert.deepEqual(tscInvocations("pnpm --filter b exec tsc -p tsconfig.build.json"), [
      { tool: "tsc", build: false, projects: ["tsconfig.build.json"], packages: { filters: ["b"] } },
    ]);
    assert.deepEqual(tscInvocations("npx tsc --noEmit"), [{ tool: "tsc", build: false, projects: [] }]);
  });
});

describe("Biome invocations in scripts", () => {
  it("reads the paths of check, lint and ci, skipping option values; format and help lint nothing", () => {
    assert.deepEqual(biomeInvocations("biome check src"), [{ paths: ["src"] }]);
    assert.deepEqual(biomeInvocations("biome check --write --config-path ../biome.json src test"), [{ paths: ["src", "test"] }]);
    assert.deepEqual(biomeInvocations("tsc --noEmit && npx @biomejs/biome lint --max-diagnostics=50 ./lib"), [{ paths: ["./lib"] }]);
    assert.deepEqual(biomeInvocations("tsc --noEmit && npx biome lint --max-diagnostics=50 ./lib"), [{ paths: ["./lib"] }]);
    assert.deepEqual(biomeInvocations("biome ci"), [{ paths: [] }]);
    assert.deepEqual(biomeInvocations("biome format --write .; biome --version; biome check --stdin-file-path=a.ts"), []);
    assert.deepEqual(biomeInvocations("pnpm -r exec biome check src"), [{ paths: ["src"], packages: { filters: [] } }]);
  });
});

describe("Biome versions before 1.9 (found on drwpow/openapi-typescript, Biome 1.8.1)", () => {
  it("get a number for --max-diagnostics, which 1.8 takes (it refuses `none`)", () => {
    assert.equal(biomeMaxDiagnostics("1.8.1"), "65535");
    assert.equal(biomeMaxDiagnostics("1.9.4"), "none");
    assert.equal(biomeMaxDiagnostics("2.6.8"), "none");
    assert.equal(biomeMaxDiagnostics(null), "none");
  });

  it("a report that left diagnostics out (diagnosticsNotPrinted) is not an answer", () => {
    const report = { summary: { errors: 3, diagnosticsNotPrinted: 2 }, diagnostics: [] };
    const result = { exitCode: 1, signal: null, stdout: JSON.stringify(report), stderr: "", timedOut: false, outputExceeded: false } as unknown as SpawnResult;
    const outcome = parseBiomeOutput(result, (path) => path);
    assert.equal(outcome.ok, false);
    assert.equal(!outcome.ok && outcome.code, "engine_output_exceeded");
    const whole = { ...result, stdout: JSON.stringify({ summary: { diagnosticsNotPrinted: 0 }, diagnostics: [] }) };
    assert.deepEqual(
      parseBiomeOutput(whole, (path) => path),
      { ok: true, issues: [] },
    );
  });
});
