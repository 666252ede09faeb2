import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { linkPackage, removeDir, REPO, runCli, tempDir } from "../helpers.ts";

// A package whose `typecheck` script runs `tsgo` (TypeScript 7's preview compiler, @typescript/native-preview) while
// the TypeScript it installs is 5.x (what other tools of the project load): Signalint checks that program with tsgo,
// as the script does. Found on t3-oss/t3-env, whose packages type-check with tsgo and whose tree hoists TypeScript 5.8:
// Signalint answered with TypeScript 5.8 and said "with tsgo".

const PREVIEW = join(REPO, "node_modules", "@typescript", "native-preview");

/** Config diagnostics tell the compilers apart: TypeScript 7 removed `target: es5` (TS5108), 5.9 accepts it. */
function project(dir: string, script: string, preview = true): void {
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "tsgo-app", private: true, scripts: { typecheck: script } }));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: "es5" }, include: ["src"] }));
  writeFileSync(join(dir, "src", "a.ts"), 'export const a: number = "one";\n');
  linkPackage(dir, "typescript", join(REPO, "node_modules", "typescript"));
  if (preview) linkPackage(dir, "@typescript/native-preview", PREVIEW);
}

/** `file:line rule` of every error a raw run printed (`file(line,col): error TSxxxx: …`). */
function rawErrors(output: string): string[] {
  return [...output.matchAll(/^(.+?)\((\d+),\d+\): error (TS\d+):/gm)].map(([, file, line, rule]) => `${file}:${line} ${rule}`).sort();
}

function checked(dir: string): string[] {
  const result = runCli(["check", "--format", "json"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: join(dir, "..", "cache") } });
  const report = JSON.parse(result.stdout) as { engines: { tsc: { status: string } }; issues: { engine: string; file: string; line: number; rule: string }[] };
  assert.equal(report.engines.tsc.status, "ok", result.stdout + result.stderr);
  return report.issues
    .filter((issue) => issue.engine === "tsc")
    .map((issue) => `${issue.file}:${issue.line} ${issue.rule}`)
    .sort();
}

describe("a tsgo script (TypeScript 7's preview compiler)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("is checked with tsgo, as the script runs it, where TypeScript 5 is the installed typescript", () => {
    const root = tempDir("signalint-tsgo-");
    dirs.push(root);
    const dir = join(root, "app");
    project(dir, "tsgo --noEmit");
    const raw = spawnSync(process.execPath, [join(PREVIEW, "bin", "tsgo"), "--noEmit", "--pretty", "false", "-p", "tsconfig.json"], {
      cwd: dir,
      encoding: "utf8",
    });
    const expected = rawErrors(raw.stdout);
    assert.ok(expected.includes("tsconfig.json:1 TS5108"), `the preview compiler removed target es5: ${raw.stdout}`);
    assert.deepEqual(checked(dir), expected);
  });

  it("a tsc script keeps the installed TypeScript (5.9 accepts target es5)", () => {
    const root = tempDir("signalint-tsgo-");
    dirs.push(root);
    const dir = join(root, "app");
    project(dir, "tsc --noEmit");
    const raw = spawnSync(process.execPath, [join(REPO, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "--pretty", "false", "-p", "tsconfig.json"], {
      cwd: dir,
      encoding: "utf8",
    });
    const found = checked(dir);
    assert.deepEqual(found, rawErrors(raw.stdout));
    assert.ok(!found.some((key) => key.endsWith("TS5108")));
  });

  it("a tsgo script without the preview installed: doctor says the program is checked with TypeScript 5 instead, and exits 1", () => {
    const root = tempDir("signalint-tsgo-");
    dirs.push(root);
    const dir = join(root, "app");
    project(dir, "tsgo --noEmit", false);
    const doctor = runCli(["doctor"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: join(root, "cache") } });
    assert.equal(doctor.status, 1, doctor.stdout + doctor.stderr);
    assert.match(
      doctor.stdout + doctor.stderr,
      /tsgo: the project's scripts run it on tsconfig\.json .*@typescript\/native-preview is not found: Signalint checks it with TypeScript 5\.\d+\.\d+ instead/,
    );
  });
});
