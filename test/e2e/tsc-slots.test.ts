import assert from "node:assert/strict";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { after, it } from "node:test";
import { REPO, removeDir, runCli, tempDir } from "../helpers.ts";

/**
 * Found on trpc/trpc (32 programs the workspace's scripts type-check, 2 CPUs): every tsc command line started at once,
 * 12 of them overran the timeout and the check was never complete. A check runs at most one tsc per CPU (and at
 * least 3) at a time; every program still answers.
 */

const REAL_TS = join(REPO, "node_modules", "typescript");
const SLOTS = Math.max(3, availableParallelism());
const PACKAGES = SLOTS + 3;

/** The project's typescript package: the real compiler behind a bin that records how many tsc processes run with it. */
function countingTypescript(project: string, running: string, log: string): void {
  const pkg = join(project, "node_modules", "typescript");
  mkdirSync(join(pkg, "bin"), { recursive: true });
  const { version } = JSON.parse(readFileSync(join(REAL_TS, "package.json"), "utf8")) as { version: string };
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "typescript", version, bin: { tsc: "./bin/tsc" } }));
  symlinkSync(join(REAL_TS, "lib"), join(pkg, "lib"));
  writeFileSync(
    join(pkg, "bin", "tsc"),
    [
      "#!/usr/bin/env node",
      'const fs = require("node:fs"), path = require("node:path");',
      `const mine = path.join(${JSON.stringify(running)}, String(process.pid));`,
      'fs.writeFileSync(mine, "");',
      `fs.appendFileSync(${JSON.stringify(log)}, fs.readdirSync(${JSON.stringify(running)}).length + "\\n");`,
      'process.on("exit", () => fs.rmSync(mine, { force: true }));',
      'require("../lib/tsc.js");',
      "",
    ].join("\n"),
  );
}

const dirs: string[] = [];
after(() => {
  for (const dir of dirs) removeDir(dir);
});

it(`a workspace of ${PACKAGES} type-checked packages runs at most ${SLOTS} tsc at once, and every program answers`, () => {
  const project = tempDir("signalint-slots-");
  const outside = tempDir("signalint-slots-count-");
  const cache = tempDir("signalint-cache-");
  dirs.push(project, outside, cache);
  const running = join(outside, "running");
  const log = join(outside, "counts.log");
  mkdirSync(running);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "root", private: true, workspaces: ["packages/*"] }));
  const expected: string[] = [];
  for (let index = 0; index < PACKAGES; index++) {
    const dir = join(project, "packages", `p${index}`);
    mkdirSync(join(dir, "src"), { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: `p${index}`, private: true, scripts: { typecheck: "tsc --noEmit" } }));
    writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, include: ["src"] }));
    writeFileSync(join(dir, "src", "index.ts"), `export const value${index}: number = "not a number";\n`);
    expected.push(`packages/p${index}/src/index.ts:1:14 TS2322`);
  }
  countingTypescript(project, running, log);

  // Every program would be warm now (issue 17: no three-program limit): the command line is what this bounds.
  const result = runCli(["check", "--format", "json"], { cwd: project, env: { SIGNALINT_CACHE_DIR: cache, SIGNALINT_WARM_TYPESCRIPT: "0" } });
  const report = JSON.parse(result.stdout) as { engines: { tsc: { status: string } }; issues: { file: string; line: number; col: number; rule: string }[] };
  assert.equal(report.engines.tsc.status, "ok", result.stdout);
  const found = report.issues.map((issue) => `${issue.file}:${issue.line}:${issue.col} ${issue.rule}`).sort();
  assert.deepEqual(found, expected.sort());
  const counts = readFileSync(log, "utf8").trim().split("\n").map(Number);
  assert.ok(counts.length >= PACKAGES, `every program ran tsc: ${counts.length} runs`);
  assert.ok(Math.max(...counts) <= SLOTS, `at most ${SLOTS} tsc at once, saw ${Math.max(...counts)} (${counts.join(",")})`);
});
