// Every tsc path equals the project's own tsc (issue 21 items 2 and 4): the command line (warm TypeScript off) and the
// warm programs give the diagnostics of `tsc -b`/`tsc --noEmit -p` run on a pristine copy — `types` from packages,
// `rootDir`, `paths`, an `incremental` config, output-format options, a base config outside the root — and nothing is
// ever written into the project tree.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { SignalintService } from "../../src/service/signalint.ts";
import { BUNDLE, flatMessage, removeDir, REPO, runCli, scratchCopy, serviceTscKeys, tempDir } from "../helpers.ts";
import { TreeGuard } from "../helpers/tree.ts";

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));
const cacheDir = tempDir("signalint-truth-cache-");
dirs.push(cacheDir);

type Files = Record<string, string>;

/** A project under a fresh temporary parent (`parent/app` is the root), tsc the only engine, TypeScript `version`. */
function project(files: Files, version: string, options: { warm: boolean; outside?: Files }): string {
  const parent = tempDir("signalint-truth-");
  dirs.push(parent);
  const root = join(parent, "app");
  const all: Files = {
    "signalint.config.json": JSON.stringify({ engines: { oxlint: false, biome: false, eslint: false, tsc: true }, warmTypeScript: options.warm }),
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  for (const [path, text] of Object.entries(options.outside ?? {})) {
    mkdirSync(dirname(join(parent, path)), { recursive: true });
    writeFileSync(join(parent, path), text);
  }
  mkdirSync(join(root, "node_modules", "@types"), { recursive: true });
  symlinkSync(join(REPO, "node_modules", version), join(root, "node_modules", "typescript"));
  symlinkSync(join(REPO, "node_modules", "@types", "node"), join(root, "node_modules", "@types", "node"));
  return root;
}

/**
 * What tsc reads of a project's parent: every file's text and every link's target, signalint.config.json left out
 * (the one file the warm and command-line cases of a project differ in, and no file tsc reads).
 */
function treeKey(parent: string): string {
  const entries: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) entries.push(`${relative(parent, path)} -> ${readlinkSync(path)}`);
      else if (stat.isDirectory()) walk(path);
      else if (relative(parent, path) !== join("app", "signalint.config.json")) entries.push(`${relative(parent, path)}\n${readFileSync(path, "utf8")}`);
    }
  };
  walk(parent);
  return entries.join("\n\0");
}

/** The raw runs made so far, by tree and arguments: a project checked warm and on the command line has one reference. */
const rawRuns = new Map<string, string[]>();

/** The raw tsc on a pristine copy of the project (same parent layout): `file:line:col rule message` per diagnostic. */
function rawTsc(root: string, args: string[]): string[] {
  const key = `${args.join(" ")}\n${treeKey(dirname(root))}`;
  const known = rawRuns.get(key);
  if (known) return [...known];
  const keys = rawTscRun(root, args);
  rawRuns.set(key, keys);
  return [...keys];
}

/** One raw run: rawTsc's, when no earlier case ran tsc with these arguments on the same tree. */
function rawTscRun(root: string, args: string[]): string[] {
  const copy = join(tempDir("signalint-pristine-"), "app");
  dirs.push(dirname(copy));
  cpSync(dirname(root), dirname(copy), { recursive: true, verbatimSymlinks: true });
  const result = spawnSync(process.execPath, [join(copy, "node_modules", "typescript", "bin", "tsc"), ...args], { cwd: copy, encoding: "utf8" });
  const keys: string[] = [];
  let last: { head: string; message: string } | null = null;
  const flush = () => last && keys.push(`${last.head} ${flatMessage(last.message)}`);
  for (const line of result.stdout.split("\n")) {
    const located = /^(.+?)\((\d+),(\d+)\): (?:error|warning) (TS\d+): (.*)$/.exec(line);
    const global = /^(?:error|warning) (TS\d+): (.*)$/.exec(line);
    if (located || global) flush();
    if (located) last = { head: `${located[1]}:${located[2]}:${located[3]} ${located[4]}`, message: located[5] as string };
    else if (global) last = { head: `tsconfig.json:1:1 ${global[1]}`, message: global[2] as string };
    else if (/^\s/.test(line) && last) last.message += `\n${line}`;
    else {
      flush();
      last = null;
    }
  }
  flush();
  return keys.sort();
}

async function check(root: string, guard: TreeGuard): Promise<{ keys: string[]; response: CheckResponse }> {
  process.env.SIGNALINT_STATE_DIR = tempDir("signalint-truth-state-");
  process.env.SIGNALINT_CACHE_DIR = cacheDir;
  dirs.push(process.env.SIGNALINT_STATE_DIR);
  guard.watch(root);
  const service = await SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root }).finally(() => {
    delete process.env.SIGNALINT_STATE_DIR;
    delete process.env.SIGNALINT_CACHE_DIR;
  });
  try {
    const response = await service.check(["."], false);
    guard.verify();
    return { keys: serviceTscKeys(service, response).sort(), response };
  } finally {
    service.close();
  }
}

/** A solution: two composite packages with `rootDir`, `paths`, `types` from @types and from a package subpath. */
const SOLUTION: Files = {
  "tsconfig.json": JSON.stringify({ files: [], references: [{ path: "packages/core" }, { path: "packages/app" }] }),
  "node_modules/globalsish/package.json": '{ "name": "globalsish", "version": "1.0.0" }\n',
  "node_modules/globalsish/globals.d.ts": "declare function describeIt(name: string): void;\n",
  "packages/core/tsconfig.json": JSON.stringify({
    compilerOptions: {
      composite: true,
      strict: true,
      rootDir: "src",
      outDir: "dist",
      module: "esnext",
      moduleResolution: "bundler",
      target: "es2022",
      types: ["node", "globalsish/globals"],
      paths: { "#util/*": ["./src/util/*"] },
    },
    include: ["src"],
  }),
  "packages/core/src/util/math.ts": "export const twice = (n: number): number => n * 2;\n",
  "packages/core/src/index.ts": [
    'import { twice } from "#util/math";',
    'describeIt("core");',
    'export function home(): string { return process.env.HOME ?? ""; }',
    'export const bad: number = twice("x");',
    "",
  ].join("\n"),
  "packages/app/tsconfig.json": JSON.stringify({
    compilerOptions: { composite: true, strict: true, rootDir: "src", outDir: "dist", module: "esnext", moduleResolution: "bundler", types: ["node"] },
    include: ["src"],
    references: [{ path: "../core" }],
  }),
  "packages/app/src/main.ts": 'import { home } from "../../core/src/index";\nexport const n: number = home();\nexport const cwd: number = process.cwd();\n',
};

/** A plain config that is incremental and sets every output-format option tsc has. */
const NOISY: Files = {
  "tsconfig.json": JSON.stringify({
    compilerOptions: {
      strict: true,
      incremental: true,
      traceResolution: true,
      extendedDiagnostics: true,
      diagnostics: true,
      listFiles: true,
      explainFiles: true,
      listEmittedFiles: true,
      pretty: true,
      types: ["node"],
    },
    include: ["src"],
  }),
  "src/a.ts": 'import { b } from "./b";\nexport const a: number = b;\nexport const cwd: number = process.cwd();\n',
  "src/b.ts": 'export const b: string = "b";\n',
};

/** Both warm and command line, for TypeScript 5.9 and 6 (7: see below). */
const MATRIX = ["typescript", "typescript6"].flatMap((version) => [true, false].map((warm) => ({ version, warm })));

describe("every tsc path equals the project's own tsc, writing nothing", () => {
  for (const { version, warm } of MATRIX) {
    const label = `${version}, ${warm ? "warm" : "command line"}`;

    it(`a solution with types, rootDir and paths equals tsc -b (${label})`, async () => {
      const root = project(SOLUTION, version, { warm });
      const guard = new TreeGuard();
      const { keys, response } = await check(root, guard);
      const raw = rawTsc(root, ["-b", "--pretty", "false"]);
      assert.ok(raw.some((key) => key.startsWith("packages/core/src/index.ts:4:")) && raw.length >= 3, raw.join("\n"));
      assert.deepEqual(keys, raw);
      assert.equal(response.engines.tsc.status, "ok");
    });

    it(`an incremental config with every output-format option equals tsc --noEmit -p (${label})`, async () => {
      const root = project(NOISY, version, { warm });
      const guard = new TreeGuard();
      const { keys, response } = await check(root, guard);
      assert.equal(response.engines.tsc.status, "ok", JSON.stringify(response.engines.tsc));
      const raw = rawTsc(root, ["--noEmit", "--pretty", "false", "-p", "tsconfig.json"]);
      assert.equal(raw.length, 2, raw.join("\n"));
      assert.deepEqual(keys, raw);
    });
  }

  for (const version of ["typescript", "typescript6", "typescript7"]) {
    for (const warm of [true, false]) {
      it(`a base config outside the root: its TS5023 is on the tsconfig that extends it (${version}, ${warm ? "warm" : "command line"})`, async () => {
        const root = project(
          {
            "tsconfig.json": JSON.stringify({ extends: "../base/tsconfig.base.json", include: ["src"] }),
            "src/a.ts": "export const a: number = 1;\n",
          },
          version,
          { warm, outside: { "base/tsconfig.base.json": '{\n  "compilerOptions": {\n    "strict": true,\n    "notAnOption": true\n  }\n}\n' } },
        );
        const guard = new TreeGuard();
        const { keys, response } = await check(root, guard);
        assert.deepEqual(rawTsc(root, ["--noEmit", "--pretty", "false", "-p", "tsconfig.json"]), [
          "../base/tsconfig.base.json:4:5 TS5023 Unknown compiler option 'notAnOption'.",
        ]);
        assert.deepEqual(keys, ["tsconfig.json:1:1 TS5023 ../base/tsconfig.base.json(4,5): Unknown compiler option 'notAnOption'."]);
        assert.equal(response.status, "issues_found");
        assert.equal(response.filteredOutIssueCount ?? 0, 0, "the diagnostic is reported, not filtered out");
      });
    }
  }

  for (const version of ["typescript", "typescript6", "typescript7"]) {
    for (const warm of [true, false]) {
      it(`errors in files outside the root fail the check, never a clean one: each on the tsconfig, its place in the message (${version}, ${warm ? "warm" : "command line"})`, async () => {
        // A source a relative import reaches above the root, and a declaration file of a package whose node_modules
        // is linked from elsewhere (a store outside the tree), skipLibCheck off: the project's own tsc fails on both.
        const root = project(
          {
            "tsconfig.json": JSON.stringify({
              compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, module: "esnext", moduleResolution: "bundler" },
              include: ["src"],
            }),
            "src/a.ts": 'import { shared } from "../../lib/shared";\nimport { broken } from "broken";\nexport const a: number = shared + broken;\n',
          },
          version,
          {
            warm,
            outside: {
              "lib/shared.ts": 'export const shared: number = "one";\n',
              "store/broken/package.json": JSON.stringify({ name: "broken", types: "index.d.ts" }),
              "store/broken/index.d.ts": "export declare const broken: number;\nexport declare function twice(value: string): Missing;\n",
            },
          },
        );
        symlinkSync(join("..", "..", "store", "broken"), join(root, "node_modules", "broken"));
        const guard = new TreeGuard();
        const { keys, response } = await check(root, guard);
        const raw = rawTsc(root, ["--noEmit", "--pretty", "false", "-p", "tsconfig.json"]);
        assert.equal(raw.length, 2, raw.join("\n"));
        assert.ok(
          raw.every((key) => key.startsWith("../")),
          raw.join("\n"),
        );
        // Each raw diagnostic `file:line:col rule message` as Signalint reports it: on tsconfig.json, located in the message.
        const onConfig = raw.map((key) => {
          const [, file, line, col, rule, message] = /^(.+?):(\d+):(\d+) (\S+) ([\s\S]*)$/.exec(key) as RegExpExecArray;
          return `tsconfig.json:1:1 ${rule} ${file}(${line},${col}): ${message}`;
        });
        assert.deepEqual(keys, onConfig.sort());
        assert.equal(response.status, "issues_found");
        assert.equal(response.filteredOutIssueCount ?? 0, 0, "reported, not filtered out");
      });
    }
  }

  it("TypeScript 7 on the command line: an incremental, traced config equals tsc --noEmit -p", async () => {
    const root = project(NOISY, "typescript7", { warm: false });
    const guard = new TreeGuard();
    const { keys, response } = await check(root, guard);
    assert.equal(response.engines.tsc.status, "ok", JSON.stringify(response.engines.tsc));
    assert.deepEqual(keys, rawTsc(root, ["--noEmit", "--pretty", "false", "-p", "tsconfig.json"]));
  });

  it('"ignore": ["**/*.json"] does not hide a tsconfig syntax error', () => {
    const root = project(
      { "tsconfig.json": '{ "compilerOptions": { "strict": true, }\n "include": ["src"] }\n', "src/a.ts": "export const a = 1;\n" },
      "typescript",
      {
        warm: false,
      },
    );
    writeFileSync(
      join(root, "signalint.config.json"),
      JSON.stringify({ engines: { oxlint: false, biome: false, eslint: false, tsc: true }, ignore: ["**/*.json"] }),
    );
    const guard = new TreeGuard();
    guard.watch(root);
    const result = runCli(["check", "--format", "json"], { cwd: root, env: { SIGNALINT_CACHE_DIR: cacheDir } });
    guard.verify();
    const report = JSON.parse(result.stdout) as { status: string; issues: { file: string; rule: string }[] };
    assert.equal(report.status, "issues_found", result.stdout);
    assert.deepEqual(
      report.issues.map((issue) => `${issue.file} ${issue.rule}`),
      ["tsconfig.json TS1005"],
    );
    assert.equal(result.status, 1);
  });

  it("check --shard on the references fixture writes nothing into the tree", () => {
    const root = scratchCopy("references", "truth-shards");
    dirs.push(root);
    const guard = new TreeGuard();
    guard.watch(root);
    for (const shard of ["1/2", "2/2"]) {
      const result = runCli(["check", "--shard", shard, "--format", "json"], {
        cwd: root,
        env: { SIGNALINT_CACHE_DIR: cacheDir, SIGNALINT_WARM_TYPESCRIPT: "0" },
      });
      assert.ok(result.status === 0 || result.status === 1, result.stderr);
    }
    guard.verify();
  });
});
