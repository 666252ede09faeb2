import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import type { PreviewResult } from "../../src/core/fix-contracts.ts";
import { call, CLEAN_PATH, connect, errorOf, everyIssue, linkBin, linkPackage, removeDir, REPO, runCli, structured, tempDir } from "../helpers.ts";

/**
 * Issue 33 item 4: oxlint follows the project's lint scripts. t3-oss/t3-env lints with `oxlint -c
 * .config/.oxlintrc.json …`: a config oxlint never finds by itself, so oxlint's defaults answered something else than
 * the project's `bun lint`. Each answer here is compared with oxlint run by hand as the script runs it.
 */

const OXLINT = join(REPO, "node_modules", "oxlint");

const SOURCE = "export function f(): number {\n  debugger;\n  var x = 1;\n  return x;\n}\n";

/** A config the defaults do not match: no-var (not on by default) warns. */
const CONFIG = JSON.stringify({ rules: { "no-var": "warn" } });

function project(scripts: Record<string, string>, files: Record<string, string> = {}): { dir: string; cache: string } {
  const dir = tempDir("signalint-oxscripts-");
  const all: Record<string, string> = {
    "package.json": JSON.stringify({ name: "ox", private: true, scripts }),
    ".config/.oxlintrc.json": CONFIG,
    // oxlint alone: what is compared here is its answer.
    "signalint.config.json": JSON.stringify({ engines: { tsc: false } }),
    "src/a.ts": SOURCE,
    ".gitignore": "node_modules\n",
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  linkPackage(dir, "oxlint", OXLINT);
  return { dir, cache: tempDir("signalint-cache-") };
}

interface Report {
  engines: Record<string, { status: string; message?: string }>;
  notChecked?: { reason: string; count: number; sample: string[] }[];
  issues: { file: string; line: number; rule: string; engine: string; severity: string }[];
}

function check(dir: string, cache: string, args: string[] = []): Report {
  const result = runCli(["check", "--format", "json", ...args], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } });
  return JSON.parse(result.stdout) as Report;
}

const keysOf = (report: Report) =>
  report.issues
    .filter((issue) => issue.engine === "oxlint")
    .map((issue) => `${issue.file}:${issue.line} ${issue.rule} ${issue.severity}`)
    .sort();

/** What oxlint prints run by hand in `cwd` with these flags, as "file:line rule severity" relative to `root`. */
function raw(root: string, cwd: string, flags: string[]): string[] {
  const result = spawnSync(process.execPath, [join(OXLINT, "bin", "oxlint"), ...flags, "--format", "json"], { cwd, encoding: "utf8" });
  const report = JSON.parse(result.stdout) as { diagnostics: { filename: string; code: string; severity: string; labels: { span: { line: number } }[] }[] };
  return report.diagnostics
    .map((d) => `${relative(root, join(cwd, d.filename))}:${d.labels[0]?.span.line} ${d.code} ${d.severity === "error" ? "error" : "warning"}`)
    .sort();
}

describe("oxlint follows the project's lint scripts", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));
  const make = (...args: Parameters<typeof project>) => {
    const made = project(...args);
    dirs.push(made.dir, made.cache);
    return made;
  };

  it("`-c .config/.oxlintrc.json`: the script's config, not oxlint's defaults (no-var reported), whole project and one file", () => {
    const { dir, cache } = make({ lint: "oxlint -c .config/.oxlintrc.json --deny-warnings" });
    const expected = raw(dir, dir, ["-c", ".config/.oxlintrc.json"]);
    assert.ok(expected.includes("src/a.ts:3 eslint(no-var) warning"), "the script's config warns on var");
    assert.notDeepEqual(raw(dir, dir, []), expected, "oxlint's defaults answer otherwise");
    const whole = check(dir, cache);
    assert.equal(whole.engines.oxlint?.status, "ok");
    assert.deepEqual(keysOf(whole), expected);
    assert.match(whole.engines.oxlint?.message ?? "", /as the lint scripts run it: "lint".*fails on warnings/);
    assert.match(
      runCli(["doctor"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } }).stdout,
      /oxlint runs as script "lint": from \. on \. with -c \.config\/\.oxlintrc\.json/,
    );
    assert.deepEqual(keysOf(check(dir, cache, ["src/a.ts"])), expected);
  });

  it("`-A no-debugger` removes a default rule's finding", () => {
    const { dir, cache } = make({ lint: "oxlint -A no-debugger" });
    const expected = raw(dir, dir, ["-A", "no-debugger"]);
    assert.ok(!expected.some((key) => key.includes("no-debugger")));
    assert.ok(
      raw(dir, dir, []).some((key) => key.includes("no-debugger")),
      "the default reports debugger",
    );
    assert.deepEqual(keysOf(check(dir, cache)), expected);
  });

  it("a flag Signalint does not know: oxlint's defaults, and the engine's message names the flag", () => {
    const { dir, cache } = make({ lint: "oxlint -c .config/.oxlintrc.json --frobnicate" });
    const report = check(dir, cache);
    assert.equal(report.engines.oxlint?.status, "ok");
    assert.match(report.engines.oxlint?.message ?? "", /defaults: script "lint" passes --frobnicate, which Signalint does not know/);
    assert.deepEqual(keysOf(report), raw(dir, dir, []));
  });

  it("a script whose paths the shell expands (`$FILES`) or that are not there: oxlint's defaults, said, never nothing linted", () => {
    for (const lint of ["oxlint -c .config/.oxlintrc.json $FILES", "oxlint -c .config/.oxlintrc.json missing-dir"]) {
      const { dir, cache } = make({ lint });
      const report = check(dir, cache);
      assert.equal(report.engines.oxlint?.status, "ok", lint);
      assert.match(report.engines.oxlint?.message ?? "", /oxlint runs with its defaults: script "lint" lints /, lint);
      assert.deepEqual(keysOf(report), raw(dir, dir, []), lint);
    }
  });

  it("a fixing script is not the lint when another script lints; of differing lint scripts, `lint` is followed and the others named", () => {
    const { dir, cache } = make({ "lint:fix": "oxlint -A no-var --fix", "lint:strict": "oxlint -D all", lint: "oxlint -c .config/.oxlintrc.json" });
    const report = check(dir, cache);
    assert.deepEqual(keysOf(report), raw(dir, dir, ["-c", ".config/.oxlintrc.json"]));
    assert.match(report.engines.oxlint?.message ?? "", /oxlint follows script "lint" in \.; "lint:strict" run it with other flags/);
    assert.doesNotMatch(report.engines.oxlint?.message ?? "", /lint:fix/);
  });

  it("cached answers are keyed by the script's flags and by the content of its config", () => {
    const { dir, cache } = make({ lint: "oxlint -c .config/.oxlintrc.json" });
    const first = keysOf(check(dir, cache, ["src/a.ts"]));
    assert.ok(first.includes("src/a.ts:3 eslint(no-var) warning"));
    // The config edited: no-var off.
    writeFileSync(join(dir, ".config/.oxlintrc.json"), JSON.stringify({ rules: { "no-var": "off" } }));
    const edited = keysOf(check(dir, cache, ["src/a.ts"]));
    assert.deepEqual(edited, raw(dir, dir, ["-c", ".config/.oxlintrc.json"]));
    assert.ok(!edited.some((key) => key.includes("no-var")));
    // Back to the first config, and a flag added to the script: another answer again.
    writeFileSync(join(dir, ".config/.oxlintrc.json"), CONFIG);
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({ name: "ox", private: true, scripts: { lint: "oxlint -c .config/.oxlintrc.json -A no-debugger" } }),
    );
    const flagged = keysOf(check(dir, cache, ["src/a.ts"]));
    assert.deepEqual(flagged, raw(dir, dir, ["-c", ".config/.oxlintrc.json", "-A", "no-debugger"]));
    assert.ok(flagged.includes("src/a.ts:3 eslint(no-var) warning") && !flagged.some((key) => key.includes("no-debugger")));
  });

  it("a package's script runs from its directory on its paths; files no script lints are an informational note", () => {
    const { dir, cache } = make(
      {},
      {
        "package.json": JSON.stringify({ name: "root", private: true, workspaces: ["packages/*"] }),
        "packages/a/package.json": JSON.stringify({ name: "a", scripts: { lint: "oxlint -c ../../.config/.oxlintrc.json src" } }),
        "packages/a/src/a.ts": SOURCE,
        "packages/a/scripts/gen.ts": SOURCE,
        "packages/b/package.json": JSON.stringify({ name: "b" }),
        "packages/b/src/b.ts": SOURCE,
      },
    );
    const expected = raw(dir, join(dir, "packages/a"), ["-c", "../../.config/.oxlintrc.json", "src"]);
    assert.ok(expected.includes("packages/a/src/a.ts:3 eslint(no-var) warning"));
    const report = check(dir, cache);
    assert.equal(report.engines.oxlint?.status, "ok");
    assert.deepEqual(keysOf(report), expected);
    const note = report.notChecked?.find((each) => each.reason.startsWith("not linted by oxlint"));
    assert.ok(note, JSON.stringify(report.notChecked));
    assert.deepEqual(note.sample, ["packages/a/scripts/gen.ts", "packages/b/src/b.ts", "src/a.ts"]);
  });

  it("a fix previewed uses the script's -c config, as its check did: no-var is fixed", async () => {
    const { dir } = make({ lint: "oxlint -c .config/.oxlintrc.json" });
    const session = await connect(dir);
    try {
      const check = structured<CheckResponse>(await call(session.client, "check_project"));
      const noVar = (await everyIssue(session, check)).find((issue) => issue.file === "src/a.ts" && issue.rule.includes("no-var"));
      assert.ok(noVar, "the check reports no-var from the script's config");
      const preview = structured<PreviewResult>(await call(session.client, "preview_diagnostic_fix", { issueIds: [noVar.issueId], checkId: check.checkId }));
      assert.deepEqual(preview.files[0]?.fixes, [{ engine: "oxlint", kind: "safe", issueIds: [noVar.issueId] }], JSON.stringify(preview));
      assert.match(readFileSync(join(dir, "src/a.ts"), "utf8"), /var x/, "a preview writes nothing");
    } finally {
      await session.close();
    }
  });

  it("files no tsconfig includes that the project's oxlint --type-check lints: said apart, still not type-checked", () => {
    const { dir, cache } = make(
      { lint: "oxlint --type-aware --type-check" },
      {
        "signalint.config.json": JSON.stringify({}),
        "tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, noEmit: true, skipLibCheck: true }, include: ["src"] }),
        "docs/example.ts": "export const e: number = 1;\n",
      },
    );
    linkBin(dir, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
    const report = check(dir, cache);
    const notes = report.notChecked ?? [];
    const byOxlint = notes.find((note) => note.reason.includes("only the project's oxlint --type-check"));
    assert.ok(byOxlint, JSON.stringify(notes));
    assert.match(byOxlint.reason, /script "lint"/);
    assert.deepEqual(byOxlint.sample, ["docs/example.ts"]);
    // No oxlint-tsgolint here: the script's --type-aware could not be followed, and the engine says so.
    assert.match(report.engines.oxlint?.message ?? "", /passes --type-aware, but oxlint-tsgolint is not installed/);
    assert.ok(!notes.some((note) => note.reason === "not type-checked: no tsconfig the project checks includes them"), JSON.stringify(notes));
  });

  it("a script's --type-aware without oxlint-tsgolint (its own run fails): never clean, the files named; oxlintTypeAware: false is the user's choice", () => {
    const clean = "export const a: number = 1;\n";
    const { dir, cache } = make({ lint: "oxlint --type-aware src" }, { "src/a.ts": clean, "docs/b.ts": clean });
    // The project's own lint fails here: oxlint cannot run what its script asks (from a shell whose PATH has no
    // tsgolint: oxlint finds one on PATH, as `npm run` puts this repository's node_modules/.bin there).
    const own = spawnSync(process.execPath, [join(OXLINT, "bin", "oxlint"), "--type-aware", "src"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, PATH: CLEAN_PATH },
    });
    assert.notEqual(own.status, 0, own.stdout + own.stderr);
    const result = runCli(["check", "--format", "json"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } });
    const report = JSON.parse(result.stdout) as Report & { status: string };
    assert.equal(report.engines.oxlint?.status, "ok", JSON.stringify(report.engines));
    assert.equal(report.issues.length, 0, JSON.stringify(report.issues));
    assert.equal(report.status, "error", JSON.stringify(report));
    assert.equal(result.status, 1, result.stderr);
    const note = report.notChecked?.find((entry) => entry.reason.includes("type-aware rules"));
    assert.ok(note, JSON.stringify(report.notChecked));
    assert.match(note.reason, /npm i -D oxlint-tsgolint/);
    assert.deepEqual(note.sample, ["src/a.ts"], "only what the script lints");
    writeFileSync(join(dir, "signalint.config.json"), JSON.stringify({ engines: { tsc: false }, oxlintTypeAware: false }));
    const chosen = runCli(["check", "--format", "json"], { cwd: dir, env: { SIGNALINT_CACHE_DIR: cache } });
    const off = JSON.parse(chosen.stdout) as Report & { status: string };
    assert.equal(off.status, "clean", JSON.stringify(off));
    assert.match(off.engines.oxlint?.message ?? "", /passes --type-aware, but oxlintTypeAware is false/);
  });

  it("a fix of a file passes the script's rule switches to the copy: a rule the script allows is not fixed", async () => {
    const { dir } = make({ lint: "oxlint -c .config/.oxlintrc.json -A no-var" });
    const session = await connect(dir);
    try {
      const check = structured<CheckResponse>(await call(session.client, "check_project"));
      assert.ok(!(await everyIssue(session, check)).some((issue) => issue.rule.includes("no-var")), "the script allows var");
      // Nothing the check reported in a.ts has an oxlint fix; var is not rewritten to const behind the check's back.
      const result = await call(session.client, "preview_diagnostic_fix", { files: ["src/a.ts"], kinds: ["safe"] });
      if (result.isError) assert.equal(errorOf(result).code, "nothing_to_fix");
      else assert.ok(!(structured<PreviewResult>(result).files ?? []).some((file) => /const x/.test(file.diff ?? "")), JSON.stringify(structured(result)));
    } finally {
      await session.close();
    }
  });
});
