import assert from "node:assert/strict";
import { chmodSync, cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { resolveEngine } from "../../src/engines/resolve.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { call, CLEAN_PATH, connect, enginesOf, fixture, linkBin, linkPackage, removeDir, REPO, runCli, scratchCopy, structured, tempDir } from "../helpers.ts";

const runtime = createNodeRuntime();
const STANDIN = fixture("fault-engines/one-finding.cjs");
const NODE = { command: process.execPath, args: [] };

describe("engine resolution", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("resolves the package's own bin (never a node_modules/.bin shim), and records path and version", async () => {
    const project = scratchCopy("sparse", "resolve-bin");
    dirs.push(project);
    // A .bin entry that is not the installed package's: Signalint must not run it.
    mkdirSync(join(project, "node_modules", ".bin"), { recursive: true });
    symlinkSync(STANDIN, join(project, "node_modules", ".bin", "oxlint"));
    const installed = await resolveEngine(runtime, "oxlint", { start: project, node: NODE });
    assert.equal(installed?.source, "package bin");
    assert.equal(installed?.path, join(REPO, "node_modules", "oxlint", "bin", "oxlint"));
    linkBin(project, "oxlint", STANDIN);
    const local = await resolveEngine(runtime, "oxlint", { start: project, node: NODE });
    assert.equal(local?.path, STANDIN);
    assert.deepEqual(local?.prefixArgs, [STANDIN], "a JS entry runs through node");
    const fromPackage = await resolveEngine(runtime, "tsc", { start: fixture("sparse"), node: NODE });
    assert.equal(fromPackage?.source, "package bin");
    assert.equal(fromPackage?.path, join(REPO, "node_modules", "typescript", "bin", "tsc"));
    assert.match(fromPackage?.version ?? "", /^5\.9\./);
    const session = await connect(project);
    try {
      const response = structured<CheckResponse>(await call(session.client, "check_project"));
      assert.equal((response.remainingIssues ?? []).find((issue) => issue.engine === "oxlint")?.rule, "standin(resolved)");
    } finally {
      await session.close();
    }
  });

  it("never runs a node_modules/.bin entry, falls back to PATH, and disables what is missing", async () => {
    const outer = tempDir("signalint-outer-");
    dirs.push(outer);
    const project = join(outer, "app");
    cpSync(fixture("sparse"), project, { recursive: true });
    mkdirSync(join(outer, "node_modules", ".bin"), { recursive: true });
    symlinkSync(STANDIN, join(outer, "node_modules", ".bin", "tsc")); // a .bin entry without its package: never run
    const pathDir = join(outer, "path-bin");
    mkdirSync(pathDir);
    symlinkSync(STANDIN, join(pathDir, "oxlint"));
    const result = runCli(["check", "--format", "response"], { cwd: project, env: { PATH: `${pathDir}:${CLEAN_PATH}` } });
    const response = JSON.parse(result.stdout) as CheckResponse;
    assert.equal(response.engines.oxlint.status, "ok", "oxlint found on PATH");
    // The project has TypeScript files, so a missing tsc is an error, not a silent "disabled".
    assert.equal(response.engines.tsc.status, "error", "a .bin entry is not an installed package");
    assert.equal(response.engines.tsc.code, "engine_not_found");
    assert.match(response.engines.tsc.message ?? "", /npm i -D typescript/);
    const bare = JSON.parse(runCli(["check", "--format", "response"], { cwd: project }).stdout) as CheckResponse;
    assert.deepEqual(
      Object.values(bare.engines).map((engine) => engine.status),
      ["disabled", "error", "disabled", "disabled", "disabled"],
    );
    assert.equal(bare.status, "error", "nothing ran: never 'clean'");
    // The hint uses the project's own package manager, by its lockfile.
    for (const [lockfile, command] of [
      ["bun.lock", "bun add -d"],
      ["pnpm-lock.yaml", "pnpm add -D"],
      ["yarn.lock", "yarn add -D"],
    ]) {
      writeFileSync(join(project, lockfile as string), "");
      const hinted = JSON.parse(runCli(["check", "--format", "response"], { cwd: project }).stdout) as CheckResponse;
      assert.ok(hinted.engines.tsc.message?.includes(`\`${command} typescript\``), hinted.engines.tsc.message);
      rmSync(join(project, lockfile as string));
    }
    assert.match(runCli(["doctor"], { cwd: project }).stdout, /^ {2}tsc +on, not installed; tsc not found/m);
    // Without TypeScript files nothing is required, but nothing ran either.
    rmSync(join(project, "src"), { recursive: true });
    rmSync(join(project, "tsconfig.json"));
    const empty = JSON.parse(runCli(["check", "--format", "response"], { cwd: project }).stdout) as CheckResponse;
    assert.ok(Object.values(empty.engines).every((engine) => engine.status === "disabled"));
    assert.equal(empty.status, "error", "nothing ran: never 'clean'");
    assert.match(empty.nextStep ?? "", /No engine ran/);
  });

  it("resolves from the checked path up: a workspace package's own engine wins for its files", async () => {
    const project = scratchCopy("sparse", "resolve-workspace");
    dirs.push(project);
    mkdirSync(join(project, "packages", "a"), { recursive: true });
    writeFileSync(join(project, "packages", "a", "package.json"), '{ "name": "a" }');
    writeFileSync(join(project, "packages", "a", "index.ts"), "export const a = 1;\n");
    linkBin(join(project, "packages", "a"), "oxlint", STANDIN);
    const session = await connect(project);
    try {
      const inPackage = structured<CheckResponse>(await call(session.client, "check_files", { files: ["packages/a/index.ts"] }));
      assert.equal(inPackage.engines.oxlint.status, "ok");
      assert.equal((await enginesOf(session, inPackage.checkId)).oxlint.version, undefined, "the package's stand-in (no version) ran");
      const atRoot = structured<CheckResponse>(await call(session.client, "check_project"));
      assert.match((await enginesOf(session, atRoot.checkId)).oxlint.version ?? "", /^1\./, "the root's oxlint ran for the whole project");
    } finally {
      await session.close();
    }
  });

  it("resolves from a symlinked start's real location too (a linked workspace package finds its real parents)", async () => {
    const outer = tempDir("signalint-real-parents-");
    dirs.push(outer);
    mkdirSync(join(outer, "workspace", "packages", "app"), { recursive: true });
    linkPackage(join(outer, "workspace"), "typescript", join(REPO, "node_modules", "typescript"));
    mkdirSync(join(outer, "elsewhere"));
    symlinkSync(join(outer, "workspace", "packages", "app"), join(outer, "elsewhere", "app"));
    const resolved = await resolveEngine(runtime, "tsc", { start: join(outer, "elsewhere", "app"), node: NODE });
    assert.equal(resolved?.source, "package bin");
    assert.equal(resolved?.path, join(REPO, "node_modules", "typescript", "bin", "tsc"));
  });

  it("runs a native (non-JS) engine directly", async () => {
    const project = scratchCopy("sparse", "resolve-native");
    dirs.push(project);
    const script = join(project, "native-oxlint.sh");
    writeFileSync(script, `#!/bin/sh\necho '{"diagnostics":[]}'\n`);
    chmodSync(script, 0o755);
    linkBin(project, "oxlint", script);
    const resolved = await resolveEngine(runtime, "oxlint", { start: project, node: NODE });
    assert.deepEqual(resolved?.prefixArgs, []);
    assert.equal(resolved?.command, script);
  });

  it("doctor shows how each engine resolves", () => {
    const result = runCli(["doctor", "--json"], { cwd: fixture("eslint-flat") });
    assert.equal(result.status, 0);
    const report = JSON.parse(result.stdout) as { engines: Record<string, { enabled: unknown; resolved: { source: string; version: string } | null }> };
    assert.equal(report.engines.eslint?.enabled, true);
    assert.equal(report.engines.eslint?.resolved?.source, "package bin");
    assert.match(report.engines.biome?.enabled as string, /off by default/);
  });
});

describe("a project reached through a symlink", () => {
  it("resolves engines and maps engine paths through the root's real location", async () => {
    const real = scratchCopy("eslint-flat", "real-root");
    const link = join(tempDir("signalint-link-"), "project");
    symlinkSync(real, link);
    try {
      const results: CheckResponse[] = [];
      for (const root of [real, link]) {
        const session = await connect(root, { SIGNALINT_PROJECT_ROOT: root });
        try {
          results.push(structured<CheckResponse>(await call(session.client, "check_project")));
        } finally {
          await session.close();
        }
      }
      assert.equal(results[0]?.totalIssues, 6);
      assert.equal(results[1]?.totalIssues, 6, "eslint reports absolute real paths; they are still the project's files");
      assert.deepEqual(results[1]?.remainingIssues, results[0]?.remainingIssues);
    } finally {
      removeDir(real);
    }
  });
});
