// Quiet checks (issue 17 item 4): with nothing changed, check_project / check_files repeat the kept engine results —
// no engine spawned, no warm program asked — and equal the previous answer; an edit of any input kind made right
// before the call (the fence makes it visible) runs the engines again and equals a cold run. A workspace of 9
// tsconfigs is warm in every program (the three-program limit is gone) and equals a cold run after edits.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { SignalintService } from "../../src/service/signalint.ts";
import { BUNDLE, REPO, STATE_HOME, removeDir, serviceIssues, tempDir } from "../helpers.ts";
import { plantOxlint, writeFiles, writeProjectFile } from "../helpers/project.ts";

const PROJECT: Record<string, string> = {
  "package.json": '{ "name": "quiet", "private": true, "type": "module" }\n',
  "tsconfig.base.json": '{ "extends": "shared-config/tsconfig.json", "compilerOptions": { "strict": true } }\n',
  "node_modules/shared-config/package.json": '{ "name": "shared-config", "version": "1.0.0" }\n',
  "node_modules/shared-config/tsconfig.json": '{ "compilerOptions": { "noImplicitReturns": false } }\n',
  "tsconfig.json":
    '{ "extends": "./tsconfig.base.json", "compilerOptions": { "noEmit": true, "target": "ES2022", "lib": ["ES2022"], "module": "ESNext", "moduleResolution": "bundler", "skipLibCheck": false, "types": [] }, "include": ["src"] }\n',
  ".oxlintrc.json": '{ "rules": { "no-debugger": "off" } }\n',
  "src/main.ts":
    'import { dep } from "dep";\nexport const a: number = dep;\nexport function f(x) {\n  debugger;\n  if (x === NaN) return 0;\n  return x;\n}\nexport function g(x: number) {\n  if (x > 0) return 1;\n}\n',
  "src/other.ts": "export const b: number = 2;\n",
  "node_modules/dep/package.json": '{ "name": "dep", "version": "1.0.0", "types": "index.d.ts" }\n',
  "node_modules/dep/index.d.ts": "export declare const dep: number;\n",
};

/** Every issue of a check, as comparable text (ids and check ids left out). */
function issueKeys(service: SignalintService, response: CheckResponse): string[] {
  return serviceIssues(service, response)
    .map((issue) => `${issue.engine} ${issue.file}:${issue.line}:${issue.col} ${issue.rule} ${issue.message}`)
    .sort();
}

/** A check of a fresh service on the same tree (its own state directory): what a cold run answers. */
async function coldKeys(project: string, paths: string[], incremental: boolean): Promise<string[]> {
  const state = tempDir("signalint-quiet-cold-state-");
  const previous = process.env.SIGNALINT_STATE_DIR;
  process.env.SIGNALINT_STATE_DIR = state;
  const service = await SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root: project });
  if (previous === undefined) delete process.env.SIGNALINT_STATE_DIR;
  else process.env.SIGNALINT_STATE_DIR = previous;
  try {
    return issueKeys(service, await service.check(paths, incremental));
  } finally {
    service.close();
    removeDir(state);
  }
}

interface Probe {
  response: CheckResponse;
  keys: string[];
  reused: boolean;
  oxlintRuns: number;
  warmAsked: number;
}

async function open(
  project: string,
  log: string,
  options: { prewarm?: boolean } = {},
): Promise<{ service: SignalintService; check: (paths: string[], incremental: boolean) => Promise<Probe> }> {
  delete process.env.SIGNALINT_STATE_DIR;
  const service = await SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root: project, ...options });
  const runs = () => (existsSync(log) ? readFileSync(log, "utf8").split("\n").filter(Boolean).length : 0);
  const check = async (paths: string[], incremental: boolean): Promise<Probe> => {
    const oxlintBefore = runs();
    const warmBefore = service.warmChecksAsked();
    const response = await service.check(paths, incremental);
    return {
      response,
      keys: issueKeys(service, response),
      reused: service.lastTiming?.reused === true,
      oxlintRuns: runs() - oxlintBefore,
      warmAsked: service.warmChecksAsked() - warmBefore,
    };
  };
  return { service, check };
}

/** Wait (on events, not time) for the warm programs and the watch. */
async function settle(service: SignalintService): Promise<void> {
  const hold = setInterval(() => {}, 1000);
  await Promise.all([service.warmSettled(), service.changes.ready()]).finally(() => clearInterval(hold));
}

describe("quiet checks: nothing changed answers from the kept results", () => {
  // TypeScript 7's warm program names every file tsgo read through the host's callbacks (extended configs too).
  for (const typescript of ["typescript", "typescript7"])
    it(`repeat the answer without running an engine, and run again after an edit of each input kind (${typescript})`, async () => {
      const project = tempDir("signalint-quiet-");
      const log = join(tempDir("signalint-quiet-log-"), "oxlint.log");
      writeFiles(project, PROJECT);
      symlinkSync(join(REPO, "node_modules", typescript), join(project, "node_modules", "typescript"));
      plantOxlint(project, log);
      const { service, check } = await open(project, log);
      try {
        for (const [paths, incremental] of [
          [["."], false],
          [["src/main.ts", "src/other.ts"], true],
        ] as const) {
          await check([...paths], incremental);
          await settle(service);
          // The first check of the server had no watch to vouch for it: this one runs, and its results are kept.
          const kept = await check([...paths], incremental);
          if (!incremental) assert.equal(kept.reused, false);
          assert.equal(service.changes.status, "on", "the project tree is watched");
          const quiet = await check([...paths], incremental);
          assert.equal(quiet.reused, true, "nothing changed: the kept results answered");
          assert.equal(quiet.oxlintRuns, 0, "no engine spawned");
          assert.equal(quiet.warmAsked, 0, "no warm program asked");
          assert.deepEqual(quiet.keys, kept.keys, "the same answer");
          assert.notEqual(quiet.response.checkId, kept.response.checkId, "a new check");
          assert.ok(quiet.keys.some((key) => key.startsWith("tsc ")) && quiet.keys.some((key) => key.startsWith("oxlint ")));
          if (incremental) assert.equal(quiet.response.cache?.tsc?.mode, "unchanged");
        }
        const edits: [string, () => void, (keys: string[]) => void][] = [
          [
            "a source file",
            () => writeProjectFile(project, "src/other.ts", "export const b: string = 2;\n"),
            (keys) => assert.ok(keys.some((key) => key.includes("src/other.ts:1"))),
          ],
          [
            "the tsconfig",
            () => writeProjectFile(project, "tsconfig.json", PROJECT["tsconfig.json"]?.replace('"include": ["src"]', '"include": ["src/main.ts"]') ?? ""),
            (keys) => assert.ok(!keys.some((key) => key.includes("tsc src/other.ts"))),
          ],
          [
            "a config extended from node_modules",
            () => writeFileSync(join(project, "node_modules", "shared-config", "tsconfig.json"), '{ "compilerOptions": { "noImplicitReturns": true } }\n'),
            (keys) => assert.ok(keys.some((key) => key.includes("TS7030"))),
          ],
          [
            "the extended base",
            () => writeProjectFile(project, "tsconfig.base.json", '{ "extends": "shared-config/tsconfig.json", "compilerOptions": { "strict": false } }\n'),
            (keys) => assert.ok(!keys.some((key) => key.includes("TS7006"))),
          ],
          [
            "package.json",
            () => writeProjectFile(project, "package.json", PROJECT["package.json"]?.replace('"private"', '"version": "1.0.0", "private"') ?? ""),
            () => {},
          ],
          [
            "the lint config",
            () => writeProjectFile(project, ".oxlintrc.json", '{ "rules": { "no-debugger": "error" } }\n'),
            (keys) => assert.ok(keys.some((key) => key.includes("no-debugger"))),
          ],
          ["signalint.config.json", () => writeProjectFile(project, "signalint.config.json", '{ "ignore": ["nothing/**"] }\n'), () => {}],
          [
            "a declaration in node_modules",
            () => writeFileSync(join(project, "node_modules", "dep", "index.d.ts"), "export declare const dep: string;\n"),
            (keys) => assert.ok(keys.some((key) => key.includes("src/main.ts:2"))),
          ],
          [
            "a package installed",
            () =>
              writeFiles(project, {
                "node_modules/@types/extra/index.d.ts": "export {};\n",
                "node_modules/@types/extra/package.json": '{ "name": "@types/extra", "version": "1.0.0" }\n',
              }),
            () => {},
          ],
        ];
        for (const [kind, edit, expect] of edits) {
          edit();
          const after = await check(["."], false);
          assert.equal(after.reused, false, `an edit of ${kind} right before the check is seen`);
          assert.deepEqual(after.keys, await coldKeys(project, ["."], false), `after an edit of ${kind}, the answer equals a cold run`);
          expect(after.keys);
          await settle(service);
          const again = await check(["."], false);
          assert.equal(again.reused, true, `quiet again after ${kind}`);
          assert.deepEqual(again.keys, after.keys);
        }
      } finally {
        service.close();
        removeDir(project);
      }
    });

  it("a long-lived server watches from the start: its first answer is kept, and the next check repeats it", async () => {
    // A daemon's first check came before any watch: the second ran every engine again (16 s of typed ESLint on an Nx
    // workspace, whose results are never cached), and only the third was quiet.
    const project = tempDir("signalint-quiet-first-");
    const log = join(tempDir("signalint-quiet-first-log-"), "oxlint.log");
    // What it reads outside the watch is TypeScript's own (installed long before): a file written a moment ago there
    // could have changed while the engines read it, so such an answer waits for the next check's stamps.
    writeFiles(project, {
      ...Object.fromEntries(Object.entries(PROJECT).filter(([path]) => !path.startsWith("node_modules/"))),
      "tsconfig.base.json": '{ "compilerOptions": { "strict": true } }\n',
      "src/main.ts": (PROJECT["src/main.ts"] ?? "").replace('import { dep } from "dep";\nexport const a: number = dep;\n', ""),
    });
    mkdirSync(join(project, "node_modules"));
    symlinkSync(join(REPO, "node_modules", "typescript"), join(project, "node_modules", "typescript"));
    plantOxlint(project, log);
    // The state home exists before the wait: the server's state directory made in it changes no directory above the root.
    mkdirSync(join(STATE_HOME, "signalint", "projects"), { recursive: true });
    // The premise, not a wait for an event: files read outside the watch (and the directories above the root, where
    // linters look for configs) settled more than a second before the check, as an installed project's are.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const { service, check } = await open(project, log, { prewarm: true });
    try {
      const first = await check(["."], false);
      assert.equal(first.reused, false);
      assert.equal(first.oxlintRuns, 1);
      const second = await check(["."], false);
      assert.equal(second.reused, true, "nothing changed since the first check: its kept results answered");
      assert.equal(second.oxlintRuns, 0, "no engine spawned");
      assert.deepEqual(second.keys, first.keys);
      writeProjectFile(project, "src/other.ts", "export const b: string = 2;\n");
      const edited = await check(["."], false);
      assert.equal(edited.reused, false, "an edit right after the first check is seen");
      assert.deepEqual(edited.keys, await coldKeys(project, ["."], false));
    } finally {
      service.close();
      removeDir(project);
    }
  });
});

describe("quiet checks and the lint cache follow the ignore files oxlint reads outside the watched tree", () => {
  it("a .gitignore above the root (a package of a repository) and .git/info/exclude: each edit equals a cold run", async () => {
    const repository = tempDir("signalint-quiet-repo-");
    const project = join(repository, "app");
    const log = join(tempDir("signalint-quiet-log-"), "oxlint.log");
    writeFiles(project, {
      "package.json": '{ "name": "app", "private": true, "type": "module" }\n',
      "signalint.config.json": '{ "engines": { "tsc": false, "biome": false, "eslint": false } }\n',
      "src/bad.js": "debugger;\n",
      "src/good.js": "export const ok = 1;\n",
    });
    plantOxlint(project, log);
    const { service, check } = await open(project, log);
    try {
      const first = await check(["."], false);
      assert.ok(
        first.keys.some((key) => key.includes("src/bad.js:1")),
        JSON.stringify(first.keys),
      );
      await settle(service);
      await check(["."], false);
      const edits: [string, () => void, number][] = [
        ["a .gitignore above the root", () => writeFileSync(join(repository, ".gitignore"), "bad.js\n"), 0],
        ["that .gitignore emptied", () => writeFileSync(join(repository, ".gitignore"), ""), 1],
        ["the repository's .git/info/exclude", () => writeFiles(project, { ".git/info/exclude": "src/bad.js\n" }), 0],
      ];
      for (const [kind, edit, bad] of edits) {
        edit();
        const after = await check(["."], false);
        assert.deepEqual(after.keys, await coldKeys(project, ["."], false), `after an edit of ${kind}, the answer equals a cold run`);
        assert.equal(after.keys.filter((key) => key.includes("src/bad.js")).length, bad, kind);
        await settle(service);
        const again = await check(["."], false);
        assert.deepEqual([again.reused, again.oxlintRuns, again.keys], [true, 0, after.keys], `quiet again after ${kind}`);
      }
    } finally {
      service.close();
      removeDir(repository);
    }
  });
});

/** A workspace of `count` packages, each with its own tsconfig (no root tsconfig): every one a program. */
function workspace(count: number): string {
  const project = tempDir(`signalint-quiet-ws${count}-`);
  const files: Record<string, string> = {
    "package.json": '{ "name": "ws", "private": true, "workspaces": ["packages/*"] }\n',
    "signalint.config.json": '{ "engines": { "oxlint": false, "biome": false, "eslint": false } }\n',
  };
  for (let i = 0; i < count; i++) {
    files[`packages/p${i}/package.json`] = `{ "name": "p${i}", "private": true }\n`;
    files[`packages/p${i}/tsconfig.json`] =
      '{ "compilerOptions": { "strict": true, "noEmit": true, "target": "ES2022", "lib": ["ES2022"], "module": "ESNext", "moduleResolution": "bundler", "types": [] }, "include": ["src"] }\n';
    files[`packages/p${i}/src/a.ts`] = `export const a${i}: number = ${i};\n`;
    files[`packages/p${i}/src/b.ts`] = `import { a${i} } from "./a";\nexport const b${i}: number = a${i} + 1;\n`;
  }
  writeFiles(project, files);
  mkdirSync(join(project, "node_modules"), { recursive: true });
  symlinkSync(join(REPO, "node_modules", "typescript"), join(project, "node_modules", "typescript"));
  return project;
}

// 9 programs, three times the old limit. A workspace of 5 (edited at the same places: first, last, middle) ran here
// too, for half a minute, and proved nothing this one does not.
{
  const count = 9;
  describe(`a workspace of ${count} tsconfigs`, () => {
    it("checks every program warm, equal to a cold run after edits, and quiet with nothing changed", async () => {
      const project = workspace(count);
      const { service, check } = await open(project, join(project, "no-log"));
      try {
        const first = await check(["."], false);
        assert.equal(first.keys.length, 0);
        await settle(service);
        for (const i of [0, count - 1, Math.floor(count / 2)]) {
          writeProjectFile(project, `packages/p${i}/src/a.ts`, `export const a${i}: string = "${i}";\n`);
          const after = await check(["."], false);
          assert.match(after.response.engines.tsc.status, /^ok$/);
          assert.equal(after.response.engines.tsc.message?.includes("command line"), false, "no program fell back to the command line");
          const modes = (service.lastTiming?.cache?.tsc?.mode ?? "").split("+");
          assert.ok(modes.length > 0 && modes.every((mode) => mode.startsWith("warm-")), `every program warm (${modes.join("+")})`);
          assert.equal(service.warmRssBytes() > 0, true);
          assert.deepEqual(after.keys, await coldKeys(project, ["."], false), "equal to a cold run");
          assert.ok(after.keys.some((key) => key.includes(`packages/p${i}/src/b.ts:2`)));
        }
        await settle(service);
        await check(["."], false);
        const quiet = await check(["."], false);
        assert.equal(quiet.reused, true);
        assert.equal(quiet.warmAsked, 0);
      } finally {
        service.close();
        removeDir(project);
      }
    });
  });
}
