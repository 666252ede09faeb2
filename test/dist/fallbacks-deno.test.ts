// Under Deno with TypeScript 7, the expected fallback to the command line is one line (test/e2e/fallbacks.test.ts
// has the Node cases).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, it } from "node:test";
import { BUNDLE, CLEAN_PATH, DENO, DENO_FLAGS, linkPackage, removeDir, REPO, scratchCopy, tempDir } from "../helpers.ts";

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

it("under Deno with TypeScript 7 the expected fallback to the command line logs one line, no stack trace", () => {
  const project = scratchCopy("clean", "deno-ts7-fallback");
  dirs.push(project);
  linkPackage(project, "typescript", join(REPO, "node_modules", "typescript7"));
  writeFileSync(join(project, "src", "bad.ts"), 'export const x: number = "a";\n');
  const result = spawnSync(DENO, [...DENO_FLAGS, BUNDLE, "check"], {
    cwd: project,
    env: { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", SIGNALINT_STATE_DIR: tempDir("signalint-state-"), DENO_NO_UPDATE_CHECK: "1" },
    encoding: "utf8",
  });
  assert.match(result.stdout, /TS2322/, result.stderr);
  const lines = result.stderr.split("\n").filter((line) => line.trim());
  assert.ok(!lines.some((line) => /^\s+at /.test(line)), `no stack trace:\n${result.stderr}`);
  assert.ok(lines.filter((line) => line.includes("warm TypeScript")).length <= 1, result.stderr);
});
