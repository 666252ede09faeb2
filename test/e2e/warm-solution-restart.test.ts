// Restarts of a warm `tsc -b` (issue 17) in hand-made scenarios: each step edits the tree (while a host runs or
// while none does), then the (new) host answers a root config — from its stored answer or a build on persisted
// state — and that answer must equal what a cold `tsc -b --pretty false` prints on a fresh copy of the tree.
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, it } from "node:test";
import type * as TS from "typescript";
import { compilerIdentity } from "../../src/typescript/persisted-state.ts";
import { loadTypeScript } from "../../src/typescript/warm-program.ts";
import { WarmTsSolution } from "../../src/typescript/warm-solution.ts";
import { REPO, removeDir, tempDir } from "../helpers.ts";
import { coldBuild } from "../helpers/cold-build.ts";

type Files = Record<string, string | null>;

interface Step {
  /** Files written (null: deleted) before the check. */
  edits?: Files;
  /** A new host (the edits landed while none ran). */
  restart?: boolean;
  /** The config checked (relative); the solution's root without it. */
  root?: string;
}

const tsconfig = (options: Record<string, unknown>, references: string[] = [], extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    compilerOptions: { composite: true, strict: true, target: "ES2022", module: "ESNext", moduleResolution: "bundler", types: [], ...options },
    references: references.map((path) => ({ path })),
    ...extra,
  });

function write(project: string, files: Files): void {
  for (const [rel, text] of Object.entries(files)) {
    const path = join(project, rel);
    if (text === null) rmSync(path, { force: true, recursive: true });
    else {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
    }
  }
}

/** Run the steps; every answer equals a cold tsc -b; returns how each step was answered. */
async function scenario(files: Files, steps: Step[], typescript = "typescript"): Promise<string[]> {
  const typescriptDir = join(REPO, "node_modules", typescript);
  const ts = loadTypeScript(typescriptDir) as typeof TS;
  const project = tempDir("signalint-restart-");
  const cacheBase = tempDir("signalint-restart-cache-");
  const persist = {
    target: { dir: join(cacheBase, "project"), evictBase: null, maxBytes: 512 * 2 ** 20, version: "test" },
    compiler: compilerIdentity(ts.version, typescriptDir),
  };
  const format = (diagnostics: readonly TS.Diagnostic[]) =>
    ts.formatDiagnostics(diagnostics, { getCurrentDirectory: () => project, getCanonicalFileName: (file) => file, getNewLine: () => "\n" });
  write(project, files);
  const rootConfig = join(project, "tsconfig.json");
  let solution = new WarmTsSolution(ts, rootConfig, persist);
  let views = new Map<string, WarmTsSolution>();
  const modes: string[] = [];
  try {
    for (const [i, step] of [{}, ...steps].entries()) {
      write(project, step.edits ?? {});
      if (step.restart) {
        solution = new WarmTsSolution(ts, rootConfig, persist);
        views = new Map();
      }
      const config = step.root ?? "tsconfig.json";
      let target = solution;
      if (step.root) {
        target = views.get(step.root) ?? solution.view(join(project, step.root));
        views.set(step.root, target);
      }
      const cold = coldBuild(project, typescript, config);
      const stored = target.storedAnswer() as string | null;
      let warm: string;
      if (stored !== null) {
        warm = stored;
        modes.push("stored");
        target.warmUp();
      } else {
        const result = target.check();
        assert.ok(result, `step ${i}: a references config gets a warm answer`);
        warm = format(result.diagnostics);
        // A solution that built some projects from scratch and reused the rest is named for the rest: "+full" says so.
        const someFull = result.info.reuse !== "full" && result.info.projects.some((entry) => entry.reuse === "full");
        modes.push(someFull ? `${result.info.reuse}+full` : result.info.reuse);
        target.persist(warm);
      }
      const expected = await cold;
      assert.equal(warm, expected, `step ${i} (${config}, ${modes.at(-1)}): the warm answer equals a cold tsc -b`);
    }
  } finally {
    removeDir(project);
    removeDir(cacheBase);
  }
  return modes;
}

const root = (...refs: string[]) => JSON.stringify({ files: [], references: refs.map((path) => ({ path })) });
const out = { rootDir: "src", outDir: "dist" };

describe("a restarted warm solution answers as a cold tsc -b (issue 17)", () => {
  it("a project built on its persisted state does not read the declarations it persisted", async () => {
    // Declarations next to the sources: x.d.ts, persisted, resolved a.ts's `./x` after x.ts was deleted (no TS2307).
    const nextToSources = await scenario(
      {
        "tsconfig.json": root("a", "c"),
        "a/tsconfig.json": tsconfig({}),
        "a/index.ts": 'export { x } from "./x";\n',
        "a/x.ts": "export const x: number = 1;\n",
        "c/tsconfig.json": tsconfig({}, ["../a"]),
        "c/index.ts": 'import { x } from "../a/index";\nexport const y: number = x;\n',
      },
      [{ restart: true, edits: { "a/x.ts": null } }],
    );
    // c's persisted state read a/x.d.ts, gone now: c is built afresh (a restored builder would keep the answers of
    // the files importing what re-exported it: reexport-gone.test.ts), and so never reads a persisted declaration.
    assert.equal(nextToSources[0], "full");
    assert.ok(nextToSources[1] === "full" || nextToSources[1] === "restored+full", `c is not restored: ${nextToSources[1]}`);
    // A file outside c's rootDir had its declaration emitted next to it (b/src/m.d.ts): once b/src/m.ts is gone,
    // c's import of it must fail as in a cold build.
    const outsideRootDir = await scenario(
      {
        "tsconfig.json": root("a", "b", "c"),
        "a/tsconfig.json": tsconfig(out),
        "a/src/index.ts": "export const x: number = 1;\n",
        "b/tsconfig.json": tsconfig(out),
        "b/src/index.ts": "export const q: number = 1;\n",
        "b/src/m.ts": "export const m: number = 1;\n",
        "c/tsconfig.json": tsconfig(out, ["../a"]),
        "c/src/index.ts": 'import { x } from "../../a/src/index";\nimport { m } from "../../b/src/m";\nexport const z: number = x + m;\n',
      },
      [{ restart: true, edits: { "c/tsconfig.json": tsconfig(out, ["../a", "../b"]), "b/src/m.ts": null } }],
    );
    assert.equal(outsideRootDir[0], "full");
    assert.ok(outsideRootDir[1] === "full" || outsideRootDir[1] === "restored+full", `c is not restored: ${outsideRootDir[1]}`);
  });

  it("a path that was an output once (an outDir since moved) is an input of the stored answer", async () => {
    // c reads a/lib/index.d.ts from disk once a's outDir moved to dist; its edit while stopped must be seen.
    const modes = await scenario(
      {
        "tsconfig.json": root("a", "c"),
        "a/tsconfig.json": tsconfig({ rootDir: "src", outDir: "lib" }),
        "a/src/index.ts": "export const x: number = 1;\n",
        "a/lib/index.d.ts": "export declare const x: number;\n",
        "c/tsconfig.json": tsconfig(out, ["../a"]),
        "c/src/index.ts": 'import { x } from "../../a/lib/index";\nexport const y: number = x;\n',
      },
      [
        { edits: { "a/tsconfig.json": tsconfig(out) } },
        { restart: true, edits: { "a/lib/index.d.ts": "export declare const x: string;\n" } },
        { restart: true },
      ],
    );
    assert.deepEqual(modes, ["full", "incremental+full", "restored", "stored"]);
  });

  it("noEmitOnError with errors when persisted; fixed and broken again while stopped", async () => {
    const modes = await scenario(
      {
        "tsconfig.json": root("c"),
        "a/tsconfig.json": tsconfig({ ...out, noEmitOnError: true }),
        "a/src/index.ts": 'export const x: number = "";\n',
        "a/src/other.ts": "export const w: number = 1;\n",
        "c/tsconfig.json": tsconfig(out, ["../a"]),
        "c/src/index.ts": 'import { x } from "../../a/src/index";\nimport { w } from "../../a/src/other";\nexport const z: number = x + w;\n',
      },
      [
        { restart: true },
        { restart: true, edits: { "a/src/index.ts": "export const x: number = 1;\n" } },
        { restart: true, edits: { "a/src/index.ts": 'export const x: number = "";\n' } },
        { restart: true, edits: { "a/src/other.ts": "export const w: number = 2;\n" } },
      ],
    );
    // The fourth check: a's declarations c's persisted state read were not emitted (a broken again, noEmitOnError):
    // c is built afresh, as after any file it read is gone.
    assert.deepEqual(modes, ["full", "stored", "restored+full", "restored+full", "restored+full"]);
  });

  it("a project sees only the outputs of the projects built before it, as in a cold build (live, views, restarts)", async () => {
    // d is built after c and c does not reference it: a cold tsc -b has not written d/dist when c builds (TS2307).
    // The second check, nothing edited, found d's declarations in memory and dropped the error.
    const later = await scenario(
      {
        "tsconfig.json": root("c", "d"),
        "c/tsconfig.json": tsconfig(out),
        "c/src/index.ts": 'import { x } from "../../d/dist/index";\nexport const y: number = x;\n',
        "d/tsconfig.json": tsconfig(out),
        "d/src/index.ts": "export const x: number = 1;\n",
      },
      [{}, { restart: true }, {}],
    );
    assert.deepEqual(later, ["full", "reused", "stored", "reused"]);
    // `tsc -b c` does not build a (no reference): c's view reused the program the solution built with a's outputs.
    const outsideView = await scenario(
      {
        "tsconfig.json": root("a", "c"),
        "a/tsconfig.json": tsconfig(out),
        "a/src/index.ts": "export const x: number = 1;\n",
        "b/tsconfig.json": tsconfig(out),
        "b/src/index.ts": "export const q: number = 1;\n",
        "c/tsconfig.json": tsconfig(out, ["../b"]),
        "c/src/index.ts": 'import { x } from "../../a/dist/index";\nexport const y: number = x;\n',
      },
      [{ root: "c/tsconfig.json" }, { restart: true, root: "c/tsconfig.json" }, {}],
    );
    // After the restart, a's outputs are files the stored program did not see: their changed answers redo every
    // resolution on the stored builder (incremental), where c's view was once rebuilt from nothing (incremental+full).
    assert.deepEqual(outsideView, ["full", "incremental", "stored", "stored"]);
  });
});
