// A file re-exported elsewhere is deleted (nrwl/nx-examples: a lib's module behind its index, imported by another lib).
// The index's text is unchanged, so TypeScript's builder — and `tsc --incremental`, `tsc -b` on their own build info —
// keep its importers' answers: the importer's TS2305 ("has no exported member") appears only in a cold run. Signalint
// answers as the cold run, warm (a program and a solution, TypeScript 5.9, 6 and 7), from persisted state after a
// restart, and on the command line's build info (TypeScript 7 solutions).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { SignalintService } from "../../src/service/signalint.ts";
import { BUNDLE, removeDir, REPO, serviceIssues, tempDir } from "../helpers.ts";

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

const BASE = { strict: true, module: "esnext", moduleResolution: "bundler", target: "es2020", types: [], skipLibCheck: true };

const SHAPES: { name: string; files: Record<string, string>; args: string[]; gone: string }[] = [
  {
    name: "a program (tsc -p)",
    files: {
      "tsconfig.json": JSON.stringify({ compilerOptions: { ...BASE, noEmit: true }, include: ["src"] }),
      "src/index.ts": "export * from './lib/x';\n",
      "src/lib/x.ts": "export const products: number[] = [1];\n",
      "src/reducer.ts": "import { products } from './index';\nexport const n: number = products.length;\n",
      "src/app.ts": "import { n } from './reducer';\nexport const m: number = n;\n",
    },
    args: ["--noEmit", "-p", "tsconfig.json", "--pretty", "false"],
    gone: "src/lib/x.ts",
  },
  {
    name: "a solution (tsc -b), the importer in another project",
    files: {
      "tsconfig.json": JSON.stringify({ files: [], references: [{ path: "./data" }, { path: "./state" }] }),
      "tsconfig.base.json": JSON.stringify({ compilerOptions: { ...BASE, composite: true, paths: { "@rp/data": ["./data/src/index.ts"] } } }),
      "data/tsconfig.json": JSON.stringify({ extends: "../tsconfig.base.json", compilerOptions: { outDir: "out", rootDir: "src" }, include: ["src"] }),
      "state/tsconfig.json": JSON.stringify({
        extends: "../tsconfig.base.json",
        compilerOptions: { outDir: "out", rootDir: "src" },
        include: ["src"],
        references: [{ path: "../data" }],
      }),
      "data/src/index.ts": "export * from './lib/x';\n",
      "data/src/lib/x.ts": "export const products: number[] = [1];\n",
      "state/src/reducer.ts": "import { products } from '@rp/data';\nexport const n: number = products.length;\n",
    },
    args: ["-b", "tsconfig.json", "--pretty", "false"],
    gone: "data/src/lib/x.ts",
  },
];

function project(files: Record<string, string>, typescript: string, warm = true): string {
  const root = tempDir("signalint-reexport-");
  dirs.push(root);
  const all = {
    "package.json": '{ "name": "reexport", "private": true }\n',
    "signalint.config.json": JSON.stringify({ engines: { oxlint: false, biome: false, eslint: false }, ...(warm ? {} : { warmTypeScript: false }) }),
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  mkdirSync(join(root, "node_modules"));
  symlinkSync(join(REPO, "node_modules", typescript), join(root, "node_modules", "typescript"));
  return root;
}

/** The project's own tsc, cold, on a copy (tsc -b writes its outputs there): `file:line:col rule` per error. */
function cold(root: string, args: string[]): string[] {
  const copy = tempDir("signalint-reexport-cold-");
  dirs.push(copy);
  cpSync(root, copy, { recursive: true, verbatimSymlinks: true });
  const result = spawnSync(process.execPath, [join(copy, "node_modules", "typescript", "bin", "tsc"), ...args], { cwd: copy, encoding: "utf8" });
  return [...result.stdout.matchAll(/^(.+?)\((\d+),(\d+)\): error (TS\d+): /gm)].map((m) => `${m[1]}:${m[2]}:${m[3]} ${m[4]}`).sort();
}

async function open(root: string, cacheDir: string): Promise<SignalintService> {
  process.env.SIGNALINT_STATE_DIR = tempDir("signalint-reexport-state-");
  process.env.SIGNALINT_CACHE_DIR = cacheDir;
  dirs.push(process.env.SIGNALINT_STATE_DIR);
  return SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root }).finally(() => {
    delete process.env.SIGNALINT_STATE_DIR;
    delete process.env.SIGNALINT_CACHE_DIR;
  });
}

async function keys(service: SignalintService): Promise<{ keys: string[]; mode: string | undefined }> {
  const response = await service.check(["."], false);
  const found = serviceIssues(service, response)
    .filter((issue) => issue.engine === "tsc")
    .map((issue) => `${issue.file}:${issue.line}:${issue.col} ${issue.rule}`)
    .sort();
  return { keys: found, mode: service.lastTiming?.cache?.tsc?.mode };
}

// TypeScript 7: a program is warm (tsgo's own snapshots), a solution runs `tsc -b` over generated configs in the cache
// directory, on its build info and declarations there (stale-builds.ts).
for (const typescript of ["typescript", "typescript6", "typescript7"])
  describe(`a re-exported file deleted (${typescript})`, () => {
    for (const shape of SHAPES)
      it(`${shape.name}: the importers' errors, warm and after a restart, as a cold run`, async () => {
        const root = project(shape.files, typescript);
        const cacheDir = tempDir("signalint-reexport-cache-");
        dirs.push(cacheDir);
        const aside = join(tempDir("signalint-reexport-aside-"), "x.ts");
        const warm = await open(root, cacheDir);
        try {
          assert.deepEqual((await keys(warm)).keys, []);
          renameSync(join(root, shape.gone), aside);
          const expected = cold(root, shape.args);
          assert.ok(
            expected.some((key) => key.endsWith("TS2305")),
            `the cold run reports the importer: ${expected.join(", ")}`,
          );
          assert.deepEqual((await keys(warm)).keys, expected, "warm, right after the deletion");
          renameSync(aside, join(root, shape.gone));
          assert.deepEqual((await keys(warm)).keys, [], "restored");
          await warm.warmSettled();
        } finally {
          warm.close();
        }
        // A restart builds on the persisted state (an edit elsewhere is answered from it)...
        writeFileSync(join(root, shape.gone), "export const products: number[] = [2];\n");
        const restarted = await open(root, cacheDir);
        try {
          const answer = await keys(restarted);
          assert.deepEqual(answer.keys, []);
          if (typescript !== "typescript7") assert.equal(answer.mode, "warm-restored", "the persisted state was built on");
          await restarted.warmSettled();
        } finally {
          restarted.close();
        }
        // ...but not across a deletion: the stored answers of the deleted file's importers' importers would stay.
        renameSync(join(root, shape.gone), aside);
        const again = await open(root, cacheDir);
        try {
          assert.deepEqual((await keys(again)).keys, cold(root, shape.args), "after a restart, the deletion as a cold run");
        } finally {
          again.close();
        }
      });
  });

// The command line (warm TypeScript off): `tsc -p` with its build info in the cache directory, and a TypeScript 5/6
// solution's own `tsc -b` through the output overlay, whose build info lies under the overlay's copy of the tree.
for (const typescript of ["typescript", "typescript6"])
  describe(`a re-exported file deleted, on the command line (${typescript})`, () => {
    for (const shape of SHAPES)
      it(`${shape.name}: the importers' errors as a cold run`, async () => {
        const root = project(shape.files, typescript, false);
        const cacheDir = tempDir("signalint-reexport-cache-");
        dirs.push(cacheDir);
        const aside = join(tempDir("signalint-reexport-aside-"), "x.ts");
        const service = await open(root, cacheDir);
        try {
          assert.deepEqual((await keys(service)).keys, []);
          renameSync(join(root, shape.gone), aside);
          const expected = cold(root, shape.args);
          assert.ok(
            expected.some((key) => key.endsWith("TS2305")),
            `the cold run reports the importer: ${expected.join(", ")}`,
          );
          const answer = await keys(service);
          assert.ok(!answer.mode?.startsWith("warm-"), `no warm program ran: ${answer.mode}`);
          assert.deepEqual(answer.keys, expected, "right after the deletion");
          renameSync(aside, join(root, shape.gone));
          assert.deepEqual((await keys(service)).keys, [], "restored");
        } finally {
          service.close();
        }
      });
  });
