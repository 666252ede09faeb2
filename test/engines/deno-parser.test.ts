// deno lint's adapter on output captured from the real binary (Deno 2.9.6, build/fetch-deno.mjs), never written by
// hand: fixtures/deno-output/ holds what `deno lint --json` printed (see its README.md for the commands), and
// test/dist/deno-lint.test.ts checks the live binary still prints what these files hold.
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  DENO,
  denoArgs,
  denoConfigLints,
  denoConfigReferences,
  denoImportSpecifiers,
  denoMapped,
  denoTreeWrites,
  parseDenoOutput,
} from "../../src/engines/deno.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { denoTreeWritesReason } from "../../src/service/lint/deno-writes.ts";
import type { SpawnResult } from "../../src/runtime/types.ts";
import { removeDir, REPO, tempDir } from "../helpers.ts";

const OUTPUT = join(REPO, "fixtures", "deno-output");

/** A captured run: its stdout (and stderr) files and exit code. */
function captured(name: string, exitCode: number): SpawnResult {
  const read = (ext: string) => readFileSync(join(OUTPUT, `${name}.${ext}`), "utf8");
  return { exitCode, signal: null, stdout: read("stdout"), stderr: read("stderr"), timedOut: false, outputExceeded: false, spawnError: null, durationMs: 1 };
}

/** The captured runs linted a copy of fixtures/deno-app at /tmp/deno-capture/deno-app. */
const toRelative = (reported: string) => {
  const [, inside] = reported.split("/deno-capture/deno-app/");
  return inside ?? null;
};

describe("deno lint's JSON parser on captured output", () => {
  it("findings: file, 1-based line and column, rule and message of each; every finding an error, none claimed fixable", () => {
    const outcome = parseDenoOutput(captured("findings", 1), toRelative);
    assert.ok(outcome.ok);
    assert.deepEqual(
      outcome.issues.map(({ file, line, col, rule, severity, fixable }) => ({ file, line, col, rule, severity, fixable })),
      [
        { file: "src/main.ts", line: 2, col: 33, rule: "no-explicit-any", severity: "error", fixable: false },
        { file: "src/main.ts", line: 3, col: 7, rule: "prefer-const", severity: "error", fixable: false },
      ],
    );
    assert.ok(outcome.issues.every((issue) => issue.engine === "deno" && issue.message.length > 0));
  });

  it("a file it cannot parse is a parse-error issue at the place its message names, the other files' findings kept", () => {
    const outcome = parseDenoOutput(captured("parse-error", 1), toRelative);
    assert.ok(outcome.ok);
    const parse = outcome.issues.filter((issue) => issue.rule === "parse-error");
    assert.deepEqual(
      parse.map(({ file, line, col, severity, message }) => ({ file, line, col, severity, message })),
      [{ file: "src/broken.ts", line: 1, col: 23, severity: "error", message: "SyntaxError: Expression expected" }],
    );
    assert.equal(outcome.issues.filter((issue) => issue.rule !== "parse-error").length, 2, "main.ts's two findings");
  });

  it("nothing found: an empty success; a deno.json it cannot read: deno's failure, never an empty success", () => {
    assert.deepEqual(parseDenoOutput(captured("clean", 0), toRelative), { ok: true, issues: [] });
    const bad = parseDenoOutput(captured("bad-config", 1), toRelative);
    assert.equal(bad.ok, false);
    assert.ok(!bad.ok && bad.code === "engine_failed" && /deno\.json/.test(bad.message), JSON.stringify(bad));
  });

  it("malformed output is an engine error", () => {
    const result = (stdout: string): SpawnResult => ({ ...captured("clean", 0), stdout });
    for (const bad of [
      "{}",
      '{"diagnostics": []}',
      '{"diagnostics": [{"filename": "a.ts", "message": "m", "code": "c"}], "errors": []}',
      '{"diagnostics": [{"filename": "a.ts", "range": {"start": {"line": 1, "col": 0}}, "message": "m", "code": "c", "hint": 3}], "errors": []}',
      '{"diagnostics": [], "errors": [{"message": "no file"}]}',
    ]) {
      assert.equal(parseDenoOutput(result(bad), (path) => path).ok, false, bad);
    }
  });

  it("argv: JSON, no failure on a path with nothing to lint, no -- (deno lint takes none); its cache outside the tree", () => {
    assert.deepEqual(denoArgs(["src/a.ts"]), ["lint", "--json", "--permit-no-files", "src/a.ts"]);
    assert.deepEqual(denoArgs(["."]), ["lint", "--json", "--permit-no-files"], "the root: no path, so lint.include holds");
    assert.equal(DENO.linter?.ignoreArgs, null, "--ignore would replace deno.json's excludes");
    assert.equal(DENO.linter?.env?.("/cache/p").DENO_DIR, join("/cache/p", "deno"));
    assert.deepEqual(DENO.enabledBy, [], "only signalint.config.json turns it on");
  });

  it("a deno.json lints when it has a lint section or a task runs deno lint (a string or a task object)", () => {
    assert.equal(denoConfigLints(readFileSync(join(REPO, "fixtures", "deno-app", "deno.json"), "utf8")), true);
    assert.equal(denoConfigLints('{ "lint": {} }'), true);
    assert.equal(denoConfigLints('{ "tasks": { "check": { "command": "deno fmt --check && deno lint src" } } }'), true);
    assert.equal(denoConfigLints('// jsonc\n{ "tasks": { "ok": "deno task build; deno lint", }, }'), true);
    // This repository's own deno.json runs Signalint under Deno and lints nothing.
    assert.equal(denoConfigLints(readFileSync(join(REPO, "deno.json"), "utf8")), false);
    assert.equal(denoConfigLints('{ "tasks": { "x": "echo deno linting" } }'), false);
    assert.equal(denoConfigLints("not json"), false);
  });

  it("what a deno.json names that changes deno lint's answer: local lint plugins (through its imports), import map, lockfile", () => {
    const config = `// jsonc
    {
      "imports": { "ban": "./plugins/ban.ts", "rules/": "./rules/", "std/": "jsr:@std/path@1/" },
      "importMap": "./import_map.json",
      "lock": { "path": "./locks/deno.lock", "frozen": true },
      "lint": { "plugins": ["ban", "rules/one.ts", "std/x.ts", "npm:some-plugin", "/abs/p.ts", "file:///abs/q.ts"] },
    }`;
    assert.deepEqual(denoConfigReferences(config), [
      "./plugins/ban.ts",
      "./rules/one.ts",
      "/abs/p.ts",
      "file:///abs/q.ts",
      "./import_map.json",
      "./locks/deno.lock",
    ]);
    assert.deepEqual(denoConfigReferences('{ "lock": "other.lock", "importMap": "https://x/map.json" }'), []);
    assert.deepEqual(
      denoConfigReferences('{ "imports": { "#names": "./plugins/names.ts" }, "lint": { "plugins": ["./plugins/ban.ts"] } }'),
      ["./plugins/ban.ts", "./plugins/names.ts"],
      "a module a plugin imports through the config's imports",
    );
    assert.deepEqual(denoConfigReferences("not json"), []);
    assert.equal(DENO.linter?.configFiles.includes("deno.lock"), true, "the lockfile beside a config");
  });

  it("a module's specifiers, and what deno writes when its lint plugins load", () => {
    const text = 'import a from "./a.ts";\nexport { b } from "../b.ts";\nimport "npm:c@1";\nconst d = await import("jsr:@x/d");\nimport type { E } from "e";\n';
    assert.deepEqual(denoImportSpecifiers(text), ["./a.ts", "../b.ts", "npm:c@1", "jsr:@x/d", "e"]);
    assert.equal(denoMapped("std/path.ts", { "std/": "jsr:@std/", std: "./x.ts" }), "jsr:@std/path.ts");
    assert.equal(denoMapped("std", { "std/": "jsr:@std/", std: "./x.ts" }), "./x.ts");
    assert.deepEqual(denoTreeWrites({}, false), [], "local plugins: nothing");
    assert.deepEqual(denoTreeWrites({}, true), ["deno.lock"]);
    assert.deepEqual(denoTreeWrites({ lock: false, vendor: true }, true), ["vendor/"]);
    assert.deepEqual(denoTreeWrites({ lock: "./my.lock", nodeModulesDir: "auto" }, false), ["./my.lock", "node_modules/"]);
    assert.deepEqual(denoTreeWrites({ nodeModulesDir: "manual" }, false), []);
  });
});

describe("whether deno lint would write into the project tree (its lint plugins)", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));
  const runtime = createNodeRuntime();

  /** A project of these files under a temp root (each parent directory made). */
  function project(files: Record<string, string>): string {
    const root = tempDir("deno-writes-");
    dirs.push(root);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(root, path, ".."), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return root;
  }

  it("local plugins importing local modules and node: built-ins: it runs; one reaching npm through a module: not", async () => {
    const local = { "p/ban.ts": 'import { n } from "./names.ts";\nimport "node:path";\nexport default n;\n', "p/names.ts": "export const n = 1;\n" };
    assert.equal(await denoTreeWritesReason(runtime, project({ "deno.json": '{ "lint": { "plugins": ["./p/ban.ts"] } }', ...local }), ["."]), null);
    const remote = project({
      "deno.json": '{ "imports": { "n": "npm:n@1" }, "lint": { "plugins": ["./p/ban.ts"] } }',
      ...local,
      "p/names.ts": 'import "n";\nexport const n = 1;\n',
    });
    assert.match((await denoTreeWritesReason(runtime, remote, ["."])) ?? "", /imports npm:n@1\b.*deno\.lock/);
    writeFileSync(join(remote, "deno.json"), '{ "imports": { "n": "npm:n@1" }, "lock": false, "lint": { "plugins": ["./p/ban.ts"] } }');
    assert.equal(await denoTreeWritesReason(runtime, remote, ["."]), null, '"lock": false: nothing written');
  });

  it("a workspace member's plugin (the lockfile and node_modules are the root's), and no plugins at all", async () => {
    const root = project({
      "deno.jsonc": '// ws\n{ "workspace": ["./packages/*"], "nodeModulesDir": "auto" }',
      "packages/a/deno.json": '{ "lint": { "plugins": ["./ban.ts"] } }',
      "packages/a/ban.ts": "export default {};\n",
    });
    assert.match((await denoTreeWritesReason(runtime, root, ["."])) ?? "", /packages\/a\/deno\.json .*deno\.lock, node_modules\/ .*nodeModulesDir/);
    const member = (await denoTreeWritesReason(runtime, join(root, "packages", "a"), ["."])) ?? "";
    assert.match(member, /of deno\.json .*node_modules\/ beside .*deno\.jsonc/, "a member as the root: the workspace root's node_modules/");
    assert.equal(await denoTreeWritesReason(runtime, project({ "deno.json": '{ "nodeModulesDir": "auto", "lint": {} }' }), ["."]), null);
    assert.equal(await denoTreeWritesReason(runtime, project({ "src/a.ts": "" }), ["."]), null, "no deno config");
  });

  it("a plugin module reached through the config's imports (resolved from the config), a nested config of a named file, a plugin that is no regular file", async () => {
    const mapped = project({
      "deno.json": '{ "imports": { "#names": "./plugins/names.ts" }, "lint": { "plugins": ["./plugins/ban.ts"] } }',
      "plugins/ban.ts": 'import { n } from "#names";\nexport default n;\n',
      "plugins/names.ts": 'import "npm:n@1";\nexport const n = 1;\n',
    });
    assert.match((await denoTreeWritesReason(runtime, mapped, ["."])) ?? "", /imports npm:n@1\b.*deno\.lock/);
    const nested = project({ "deno.json": "{}", "sub/deno.json": '{ "lint": { "plugins": ["npm:p@1"] } }', "sub/m.ts": "" });
    assert.equal(await denoTreeWritesReason(runtime, nested, ["."]), null, "the whole root: the nested config is no member's");
    assert.match((await denoTreeWritesReason(runtime, nested, ["sub/m.ts"])) ?? "", /sub\/deno\.json imports npm:p@1/);
    // A named directory is linted with its own config (`deno lint sub` reads sub/deno.json; `deno lint .` does not).
    assert.match((await denoTreeWritesReason(runtime, nested, ["sub"])) ?? "", /sub\/deno\.json imports npm:p@1/, "a named directory's own config");
    const endless = project({ "deno.json": '{ "lint": { "plugins": ["/dev/zero"] } }' });
    assert.match((await denoTreeWritesReason(runtime, endless, ["."])) ?? "", /\/dev\/zero .*not a regular file/);
  });

  it("a decision is kept while what it looked at is as it was: nothing read again; an edited config or plugin module decides anew", async () => {
    const read: string[] = [];
    const counting: typeof runtime = {
      ...runtime,
      readFiles: (paths, wanted) => {
        read.push(...paths);
        return runtime.readFiles(paths, wanted);
      },
    };
    const root = project({
      "deno.json": '{ "lint": { "plugins": ["./p/ban.ts"] } }',
      "p/ban.ts": 'import { n } from "./names.ts";\nexport default n;\n',
      "p/names.ts": "export const n = 1;\n",
    });
    const decide = async () => {
      read.length = 0;
      return denoTreeWritesReason(counting, root, ["."]);
    };
    assert.equal(await decide(), null);
    assert.ok(
      read.some((path) => path.endsWith("names.ts")),
      "the plugin's modules were read",
    );
    assert.equal(await decide(), null);
    assert.equal(read.length, 0, `nothing changed: no config or module read again (read ${read.join(", ")})`);
    writeFileSync(join(root, "p", "names.ts"), 'import "npm:n@1";\nexport const n = 1;\n');
    assert.match((await decide()) ?? "", /imports npm:n@1\b.*deno\.lock/, "a plugin module reaching npm now");
    writeFileSync(join(root, "deno.json"), '{ "lint": { "plugins": [] } }');
    assert.equal(await decide(), null, "the config loads no plugin now");
    assert.ok(read.some((path) => path.endsWith("deno.json")));
    mkdirSync(join(root, "sub"));
    writeFileSync(join(root, "sub", "deno.json"), '{ "lint": { "plugins": ["npm:p@1"] } }');
    assert.match((await denoTreeWritesReason(counting, root, ["sub/m.ts"])) ?? "", /sub\/deno\.json imports npm:p@1/, "other paths: their own decision");
  });
});
