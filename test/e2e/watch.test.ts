// The file watch behind quiet checks (service/change-tracker.ts): warm programs told what changed must still answer
// exactly as a cold `tsc --noEmit -p` does — for edits made right before the check (no waiting: the fence is what
// makes them visible), atomic saves, deletes, directory renames, mtime-preserving writes, a symlinked file outside
// the root — and a watch that breaks must fall back to re-stating everything.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { MAX_WATCHED_DIRS } from "../../src/runtime/node-watch.ts";
import { SignalintService } from "../../src/service/signalint.ts";
import { BUNDLE, REPO, removeDir, serviceIssues, tempDir } from "../helpers.ts";
import { writeFiles, writeProjectFile } from "../helpers/project.ts";

const TSCONFIG =
  '{ "compilerOptions": { "strict": true, "noEmit": true, "target": "ES2022", "lib": ["ES2022"], "module": "ESNext", "moduleResolution": "bundler", "skipLibCheck": true, "types": [] }, "include": ["src"] }';

const FILES: Record<string, string> = {
  "signalint.config.json": '{ "engines": { "oxlint": false, "biome": false, "eslint": false, "tsc": true } }',
  "tsconfig.json": TSCONFIG,
  "src/main.ts": 'import { value } from "./lib/value";\nexport const a: number = value;\n',
  "src/lib/value.ts": "export const value = 1;\n",
  "src/other.ts": "export const b: number = 2;\n",
  "src/uses.ts": 'import { c } from "./linked";\nexport const d: number = c;\n',
};

interface Scratch {
  project: string;
  /** The file outside the root that src/linked.ts points to. */
  linkTarget: string;
  service: SignalintService;
  write: (path: string, text: string) => void;
  /** check_files on src/main.ts, other.ts and uses.ts; returns the tsc keys and asserts they equal a cold run's. */
  check: () => Promise<string[]>;
  close: () => void;
}

async function scratch(version: string): Promise<Scratch> {
  const project = tempDir("signalint-watch-");
  const outside = tempDir("signalint-watch-outside-");
  const write = (path: string, text: string) => writeProjectFile(project, path, text);
  writeFiles(project, FILES);
  mkdirSync(join(project, "node_modules"), { recursive: true });
  symlinkSync(join(REPO, "node_modules", version), join(project, "node_modules", "typescript"));
  // A program file that is a symlink to a file outside the root: the watch cannot see its target change.
  writeFileSync(join(outside, "linked.ts"), "export const c = 3;\n");
  symlinkSync(join(outside, "linked.ts"), join(project, "src", "linked.ts"));
  // The state directory inside the project (the default), where the fence's marker goes.
  delete process.env.SIGNALINT_STATE_DIR;
  const service = await SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root: project });
  const tscKeys = (response: CheckResponse) =>
    serviceIssues(service, response)
      .filter((issue) => issue.engine === "tsc")
      .map((issue) => `${issue.file}:${issue.line}:${issue.col} ${issue.rule}`)
      .sort();
  const cold = () => {
    const result = spawnSync(
      process.execPath,
      [join(project, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "--pretty", "false", "-p", "tsconfig.json"],
      {
        cwd: project,
        encoding: "utf8",
      },
    );
    return result.stdout
      .split("\n")
      .flatMap((line) => {
        const located = /^(.+)\((\d+),(\d+)\): error (TS\d+)/.exec(line);
        return located ? [`${located[1]}:${located[2]}:${located[3]} ${located[4]}`] : [];
      })
      .filter((key) => /^src\/(main|other|uses)\.ts:/.test(key))
      .sort();
  };
  const check = async () => {
    const response = await service.check(["src/main.ts", "src/other.ts", "src/uses.ts"], true);
    const keys = tscKeys(response);
    assert.deepEqual(keys, cold(), "the warm answer equals a cold tsc run");
    assert.match(response.cache?.tsc?.mode ?? "", /^warm-/);
    return keys;
  };
  const close = () => {
    service.close();
    removeDir(project);
    removeDir(outside);
  };
  return { project, linkTarget: join(outside, "linked.ts"), service, write, check, close };
}

/** Check until the warm program answers and the watch is up. */
async function warmUp(s: Scratch): Promise<void> {
  await s.service.check(["src/main.ts"], true);
  const hold = setInterval(() => {}, 1000);
  await Promise.all([s.service.warmSettled(), s.service.changes.ready()]).finally(() => clearInterval(hold));
  await s.check();
  assert.equal(s.service.changes.status, "on", "the project tree is watched");
}

for (const version of ["typescript", "typescript7"]) {
  const label = version === "typescript" ? "TypeScript 5.9" : "TypeScript 7";
  describe(`${label}: warm checks told what changed by the file watch`, () => {
    it("see every kind of edit made right before the check", async () => {
      const s = await scratch(version);
      try {
        await warmUp(s);
        const hints = s.service.changes.hintsGiven;
        // In place.
        s.write("src/main.ts", 'import { value } from "./lib/value";\nexport const a: string = value;\n');
        assert.deepEqual(await s.check(), ["src/main.ts:2:14 TS2322"]);
        // Atomic save: a temp file renamed over the original.
        writeFileSync(join(s.project, "src", ".main.ts.tmp"), 'import { value } from "./lib/value";\nexport const a: number = value;\n');
        renameSync(join(s.project, "src", ".main.ts.tmp"), join(s.project, "src", "main.ts"));
        assert.deepEqual(await s.check(), []);
        // Same size, modification time put back: only the watch's event can tell.
        const before = statSync(join(s.project, "src", "other.ts"));
        s.write("src/other.ts", "export const b: string = 2;\n");
        utimesSync(join(s.project, "src", "other.ts"), before.atime, before.mtime);
        assert.deepEqual(await s.check(), ["src/other.ts:1:14 TS2322"]);
        // A deleted import, then the directory holding it renamed back into place.
        rmSync(join(s.project, "src", "lib", "value.ts"));
        assert.deepEqual(await s.check(), ["src/main.ts:1:23 TS2307", "src/other.ts:1:14 TS2322"]);
        s.write("src/moved/value.ts", 'export const value = "moved";\n');
        rmSync(join(s.project, "src", "lib"), { recursive: true });
        renameSync(join(s.project, "src", "moved"), join(s.project, "src", "lib"));
        assert.deepEqual(await s.check(), ["src/main.ts:2:14 TS2322", "src/other.ts:1:14 TS2322"]);
        // The symlinked file's target, outside the watched tree.
        writeFileSync(s.linkTarget, 'export const c = "three";\n');
        assert.deepEqual(await s.check(), ["src/main.ts:2:14 TS2322", "src/other.ts:1:14 TS2322", "src/uses.ts:2:14 TS2322"]);
        assert.ok(s.service.changes.hintsGiven >= hints + 6, "every check was answered with the watch's hint");
        assert.equal(s.service.changes.status, "on");
      } finally {
        s.close();
      }
    });

    it("re-stat everything once the watch breaks, and stay right", async () => {
      const s = await scratch(version);
      try {
        await warmUp(s);
        // The state directory (outside the tree) removed between checks: that check goes without a hint, and is right.
        rmSync(s.service.project.stateDir, { recursive: true });
        s.write("src/other.ts", "export const b: string = 2;\n");
        assert.deepEqual(await s.check(), ["src/other.ts:1:14 TS2322"]);
        // Its fence could not be written: the watch is started again after that check.
        await s.service.changes.ready();
        assert.equal(s.service.changes.status, "on");
        // More directories than one watch holds: the watch stops for real.
        for (let i = 0; i <= MAX_WATCHED_DIRS; i++) mkdirSync(join(s.project, "many", `d${i}`), { recursive: true });
        s.write("src/other.ts", "export const b: number = 2;\n");
        const hints = s.service.changes.hintsGiven;
        assert.deepEqual(await s.check(), []);
        assert.equal(s.service.changes.hintsGiven, hints, "no hint from a broken watch");
        s.write("src/main.ts", 'import { value } from "./lib/value";\nexport const a: string = value;\n');
        assert.deepEqual(await s.check(), ["src/main.ts:2:14 TS2322"]);
      } finally {
        s.close();
      }
    });
  });
}

describe("the lint cache told what changed by the file watch", () => {
  it("re-lints a file rewritten with its size and modification time kept", async () => {
    const project = tempDir("signalint-watch-lint-");
    delete process.env.SIGNALINT_STATE_DIR;
    writeFileSync(join(project, "signalint.config.json"), '{ "engines": { "oxlint": true, "biome": false, "eslint": false, "tsc": false } }');
    mkdirSync(join(project, "node_modules"));
    symlinkSync(join(REPO, "node_modules", "oxlint"), join(project, "node_modules", "oxlint"));
    writeFileSync(join(project, "a.js"), "export const a = 1;\ndebugger;\n");
    // A whole-millisecond modification time, so putting it back makes the stat exactly equal.
    const mtime = new Date(Date.now() - 60_000 - (Date.now() % 1000));
    utimesSync(join(project, "a.js"), mtime, mtime);
    const service = await SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root: project });
    const rules = async () => {
      const response = await service.check(["a.js"], true);
      assert.equal(response.engines.oxlint.status, "ok");
      return [...(response.remainingIssues ?? []), ...response.clusters].length;
    };
    try {
      assert.equal(await rules(), 1);
      await service.changes.ready();
      assert.equal(await rules(), 1);
      assert.equal(service.changes.status, "on");
      writeFileSync(join(project, "a.js"), "export const a = 1;\n//bugger;\n");
      utimesSync(join(project, "a.js"), mtime, mtime);
      assert.equal(await rules(), 0, "the rewrite is linted, not answered from the cache");
    } finally {
      service.close();
      removeDir(project);
    }
  });
});
