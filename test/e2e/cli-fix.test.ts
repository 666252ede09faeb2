import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { linkPackage, removeDir, REPO, runCli, scratchCopy, tempDir } from "../helpers.ts";
import { writeFiles } from "../helpers/project.ts";
import { assertTreeUnchanged, snapshotTree } from "../helpers/tree.ts";

const FILES = ["src/app.js", "src/util.js"];
const read = (root: string) => FILES.map((file) => readFileSync(join(root, file), "utf8"));

describe("signalint-mcp fix", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("writes what eslint --fix then oxlint --fix write, exits 1 while errors remain (as eslint --fix); --dry-run prints the diff and writes nothing", async () => {
    const project = scratchCopy("eslint-flat", "cli-fix");
    dirs.push(project);
    const copy = tempDir("signalint-own-fix-");
    dirs.push(copy);
    cpSync(project, copy, { recursive: true, verbatimSymlinks: true });
    const own = spawnSync(process.execPath, [join(REPO, "node_modules", "eslint", "bin", "eslint.js"), "--fix", "src"], { cwd: copy, encoding: "utf8" });
    assert.equal(own.status, 1, "errors eslint cannot fix remain");
    // Then oxlint's own fixes (oxlint runs by default): Signalint gives the text to ESLint, then oxlint.
    const oxlint = spawnSync(process.execPath, [join(REPO, "node_modules", "oxlint", "bin", "oxlint"), "--fix", "src"], { cwd: copy, encoding: "utf8" });
    assert.ok(oxlint.status === 0 || oxlint.status === 1, oxlint.stderr);

    const before = snapshotTree(project);
    const dry = runCli(["fix", "--dry-run"], { cwd: project });
    assert.equal(dry.status, 1, dry.stderr);
    assert.match(dry.stdout, /^--- a\/src\/app\.js\n\+\+\+ b\/src\/app\.js\n@@ /m);
    assertTreeUnchanged(project, before);

    const fixed = runCli(["fix"], { cwd: project });
    assert.equal(fixed.status, 1, fixed.stderr);
    assert.match(fixed.stdout, /^Fixed \d+ issue\(s\) in 2 file\(s\)/);
    assert.deepEqual(read(project), read(copy));

    const usage = runCli(["fix", "--kinds", "risky"], { cwd: project });
    assert.equal(usage.status, 2);
  });

  it("asks TypeScript only for the issues it marks fixable (TS6192), as its help says: a misspelling TypeScript would fix is left", () => {
    const project = tempDir("signalint-cli-fix-ts-");
    dirs.push(project);
    writeFiles(project, {
      "package.json": JSON.stringify({ name: "cli-fix-ts", private: true, type: "module" }),
      "signalint.config.json": JSON.stringify({ engines: { oxlint: false, tsc: true, eslint: false, biome: false } }),
      "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, noUnusedLocals: true, module: "nodenext" }, include: ["src"] }),
      "src/b.ts": "export const x = 1;\nexport const y = 2;\n",
      "src/a.ts": 'import { x, y } from "./b.js";\nexport const n = Math.flor(1.5);\n',
    });
    linkPackage(project, "typescript", join(REPO, "node_modules", "typescript"));
    const fixed = runCli(["fix"], { cwd: project });
    assert.equal(fixed.status, 1, fixed.stderr + fixed.stdout);
    assert.match(fixed.stdout, /^Fixed 1 issue\(s\) in 1 file\(s\): src\/a\.ts/);
    assert.equal(readFileSync(join(project, "src/a.ts"), "utf8"), "export const n = Math.flor(1.5);\n");
    assert.doesNotMatch(fixed.stderr, /not fixed/);
  });
});
