import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import type { CliReport } from "../../src/cli/report.ts";
import { BUNDLE, ciPath, CLEAN_PATH, fixture, linkPackage, removeDir, REPO, runCli, scratchCopy, tempDir } from "../helpers.ts";
import { skipUnless } from "../helpers/skips.ts";
import { guardTrees } from "../helpers/tree.ts";

/**
 * The official SARIF 2.1.0 schema (OASIS, via SchemaStore), as @microsoft/jest-sarif ships it (MIT). It is draft-04;
 * its only draft-04-only keyword is `id`, so it compiles with Ajv 8 as `$id`.
 */
function sarifValidator(): ((value: unknown) => boolean) & { errors?: unknown[] | null } {
  const path = join(REPO, "node_modules", "@microsoft", "jest-sarif", "lib", "schemas", "sarif-2.1.0-rtm.5.json");
  const { $schema: _draft, id, ...schema } = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile({ ...schema, $id: id as string });
}

/** A project with only a warning (oxlint's no-debugger) in a JS file. */
function warningsOnly(): string {
  const dir = tempDir("signalint-warnings-");
  writeFileSync(join(dir, "package.json"), '{ "name": "warnings-only", "private": true }\n');
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src", "a.js"), "export function f() {\n  debugger;\n}\n");
  linkPackage(dir, "oxlint", join(REPO, "node_modules", "oxlint"));
  return dir;
}

describe("check for CI", () => {
  guardTrees(() => ["bad-config", "clean", "sparse", "systemic-ts"].map(fixture));
  it("--format sarif is valid SARIF 2.1.0 with every issue located and fingerprinted", () => {
    const result = runCli(["check", "--format", "sarif"], { cwd: fixture("systemic-ts") });
    assert.equal(result.status, 1, result.stderr);
    const log = JSON.parse(result.stdout);
    const validate = sarifValidator();
    const valid = validate(log);
    assert.ok(valid, JSON.stringify(validate.errors?.slice(0, 5)));
    const run = log.runs[0];
    assert.equal(run.results.length, 12);
    assert.equal(run.automationDetails.id, "signalint/");
    const first = run.results.find((result: { ruleId: string }) => result.ruleId === "tsc/TS2304");
    assert.equal(first.level, "error");
    // Locations are relative to the repository root, where code scanning resolves them (issue 19: they were
    // relative to the project root, misplaced whenever the two differ).
    assert.deepEqual(first.locations[0].physicalLocation.artifactLocation, { uri: ciPath("systemic-ts", "src/search.ts"), uriBaseId: "SRCROOT" });
    assert.equal(first.locations[0].physicalLocation.region.startLine, 10);
    assert.match(first.partialFingerprints["signalintIssueId/v1"], /^[0-9a-f]{16,}$/);
    assert.equal(run.tool.driver.rules[first.ruleIndex].id, "tsc/TS2304");
    const ids = new Set(run.results.map((result: { partialFingerprints: Record<string, string> }) => result.partialFingerprints["signalintIssueId/v1"]));
    assert.equal(ids.size, 12, "one fingerprint per issue");
  });

  it("--format sarif carries the shard in runAutomationDetails and stays valid when an engine is missing", () => {
    const dir = tempDir("signalint-noengine-");
    try {
      writeFileSync(join(dir, "package.json"), "{}\n");
      writeFileSync(join(dir, "a.ts"), 'export const a: number = "x";\n');
      const sharded = JSON.parse(runCli(["check", "--format", "sarif", "--shard", "1/1"], { cwd: dir }).stdout);
      assert.equal(sharded.runs[0].automationDetails.id, "signalint/shard-1-of-1/");
      const validate = sarifValidator();
      const valid = validate(sharded);
      assert.ok(valid, JSON.stringify(validate.errors?.slice(0, 5)));
      assert.equal(sharded.runs[0].invocations[0].executionSuccessful, false);
      assert.match(sharded.runs[0].invocations[0].toolExecutionNotifications[0].message.text, /tsc not found/);
      const github = runCli(["check", "--format", "github"], { cwd: dir });
      assert.equal(github.status, 1);
      assert.match(github.stdout, /^::error title=signalint tsc::.*tsc not found/m);
    } finally {
      removeDir(dir);
    }
  });

  it("--format json lists every issue with its location (a CLI document, not the MCP response)", () => {
    const result = runCli(["check", "--format", "json"], { cwd: fixture("systemic-ts") });
    const report = JSON.parse(result.stdout) as CliReport;
    assert.equal(report.tool, "signalint-mcp");
    assert.equal(report.issues.length, 12);
    assert.equal(report.errorCount, 11);
    assert.equal(report.warningCount, 1);
    for (const issue of report.issues) {
      assert.ok(issue.file && issue.line >= 1 && issue.col >= 1, JSON.stringify(issue));
    }
    assert.ok(!("nextStep" in report) && !("checkId" in report));
    assert.doesNotMatch(result.stdout, /get_issue_detail|check_files/);
  });

  it("exit codes follow ESLint: warnings alone exit 0 unless --max-warnings is exceeded", () => {
    const dir = warningsOnly();
    try {
      const plain = runCli(["check"], { cwd: dir });
      assert.equal(plain.status, 0, plain.stdout + plain.stderr);
      assert.match(plain.stdout, /1 problem \(0 errors, 1 warning\)/);
      assert.equal(runCli(["check", "--max-warnings", "1"], { cwd: dir }).status, 0);
      assert.equal(runCli(["check", "--max-warnings", "0"], { cwd: dir }).status, 1);
      assert.equal(runCli(["check", "--max-warnings", "many"], { cwd: dir }).status, 2);
      assert.equal(runCli(["check"], { cwd: fixture("systemic-ts") }).status, 1, "errors exit 1");
    } finally {
      removeDir(dir);
    }
  });

  it("text output has no MCP-only hints", () => {
    const result = runCli(["check"], { cwd: fixture("systemic-ts") });
    assert.doesNotMatch(result.stdout, /get_issue_detail|check_files|check_project|Next:/);
    assert.match(result.stdout, /12 problems \(11 errors, 1 warning\)\./);
  });

  it("has per-verb help, and no progress line when stderr is not a terminal", () => {
    for (const verb of ["check", "init", "hook", "doctor", "stats", "serve"]) {
      const result = runCli([verb, "--help"], { cwd: fixture("clean") });
      assert.equal(result.status, 0);
      assert.match(result.stdout, new RegExp(`^Usage: signalint-mcp ${verb}`));
    }
    assert.match(runCli(["check", "--help"], { cwd: fixture("clean") }).stdout, /--max-warnings N/);
    const quiet = runCli(["check"], { cwd: fixture("sparse") });
    assert.equal(quiet.stderr, "");
  });

  it("shows a progress line on a terminal's stderr, none under CI", {
    skip: skipUnless(!spawnSync("script", ["--version"]).error, "no script(1)", "ci-must-run"),
  }, () => {
    const onTty = (env: Record<string, string>) =>
      spawnSync("script", ["-qec", `${process.execPath} ${BUNDLE} check`, "/dev/null"], {
        encoding: "utf8",
        cwd: fixture("sparse"),
        timeout: 60_000,
        env: { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", SIGNALINT_DAEMON: "0", SIGNALINT_STATE_DIR: tempDir("signalint-state-"), ...env },
      });
    const shown = onTty({});
    assert.match(shown.stdout, /\r\x1b\[Ksignalint: tsc (started|finished)/);
    assert.match(shown.stdout, /src\/index\.ts:7:3/);
    const ci = onTty({ CI: "true" });
    assert.doesNotMatch(ci.stdout, /signalint: tsc/);
    assert.match(ci.stdout, /src\/index\.ts:7:3/);
  });

  it("doctor reports a bad config instead of exiting on it", () => {
    const result = runCli(["doctor"], { cwd: fixture("bad-config") });
    assert.equal(result.status, 1);
    assert.match(result.stdout, /INVALID: .*unknown key 'engines\.tscc'/);
    assert.match(result.stdout, /engines:/, "the rest of the report is still there");
    const json = JSON.parse(runCli(["doctor", "--json"], { cwd: fixture("bad-config") }).stdout) as { configErrors: string[] };
    assert.equal(json.configErrors.length, 1);
    const broken = tempDir("signalint-broken-config-");
    try {
      writeFileSync(join(broken, "signalint.config.json"), "{ not json");
      const result = runCli(["doctor"], { cwd: broken });
      assert.equal(result.status, 1);
      assert.match(result.stdout, /INVALID: signalint\.config\.json/);
    } finally {
      removeDir(broken);
    }
    // Every variable is read in one place, so doctor reports a bad one as the server refuses it at start-up.
    const heartbeat = runCli(["doctor"], { cwd: fixture("clean"), env: { SIGNALINT_PROGRESS_HEARTBEAT_MS: "soon" } });
    assert.equal(heartbeat.status, 1);
    assert.match(heartbeat.stdout, /INVALID: SIGNALINT_PROGRESS_HEARTBEAT_MS: expected a whole number of milliseconds, got "soon"/);
    const cacheMax = runCli(["doctor"], { cwd: fixture("clean"), env: { SIGNALINT_CACHE_MAX_MB: "lots" } });
    assert.equal(cacheMax.status, 1, cacheMax.stderr);
    assert.match(cacheMax.stdout, /INVALID: SIGNALINT_CACHE_MAX_MB must be a whole number of megabytes, not "lots"/);
  });

  it("check --cache-dir inside the project is refused before anything is created there", () => {
    const project = scratchCopy("clean", "cache-dir-inside");
    try {
      for (const given of ["cc", "sub/cc2"]) {
        const result = runCli(["check", "--cache-dir", given], { cwd: project, env: { CI: "true" } });
        assert.equal(result.status, 2, result.stderr);
        assert.match(result.stderr, /inside the project/);
        assert.equal(existsSync(join(project, given.split("/")[0] as string)), false, `${given} was not created`);
      }
    } finally {
      removeDir(project);
    }
  });

  it("check --cache-dir with CI=true: the second run builds on the first's persisted state, re-checks nothing and answers as a cold run (issue 17)", () => {
    const project = scratchCopy("systemic-ts", "cache-dir");
    const cacheDir = tempDir("signalint-ci-cache-");
    const states = [tempDir("signalint-ci-state-"), tempDir("signalint-ci-state-"), tempDir("signalint-ci-state-")];
    try {
      const check = (state: string, extra: string[]) =>
        runCli(["check", "--format", "json", ...extra], { cwd: project, env: { CI: "true", SIGNALINT_STATE_DIR: state } });
      const stats = (state: string) => {
        const result = runCli(["stats", "--json"], { cwd: project, env: { SIGNALINT_STATE_DIR: state } });
        return JSON.parse(result.stdout) as { cache: Record<string, { hits: number; misses: number; modes: Record<string, number> }> };
      };
      const first = check(states[0] as string, ["--cache-dir", cacheDir]);
      assert.equal(first.status, 1, first.stderr);
      const firstTsc = stats(states[0] as string).cache.tsc;
      assert.deepEqual(firstTsc?.modes, { "warm-full": 1 });
      assert.ok((firstTsc?.misses ?? 0) > 0 && firstTsc?.hits === 0, `a full build checked every file: ${JSON.stringify(firstTsc)}`);
      const second = check(states[1] as string, ["--cache-dir", cacheDir]);
      assert.equal(second.stdout, first.stdout, "the restored run answers exactly as the first");
      const tsc = stats(states[1] as string).cache.tsc;
      assert.deepEqual(tsc?.modes, { "warm-restored": 1 }, "TypeScript built on the persisted state");
      assert.equal(tsc?.misses, 0, "and re-checked no file");
      assert.ok((stats(states[1] as string).cache.oxlint?.hits ?? 0) > 0, "the lint cache came from the cache directory too");
      // A cold run: a fresh cache directory, so TypeScript builds from nothing (warm-full; the command line names no
      // declarations, so its clusters would differ by design).
      const cold = runCli(["check", "--format", "json"], {
        cwd: project,
        env: { CI: "true", SIGNALINT_STATE_DIR: states[2] as string, SIGNALINT_CACHE_DIR: tempDir("signalint-cold-cache-") },
      });
      assert.equal(second.stdout, cold.stdout, "and as a cold run");
      assert.deepEqual(stats(states[2] as string).cache.tsc?.modes, { "warm-full": 1 });
      assert.ok(!existsSync(join(project, ".signalint", "cache")), "nothing written into the project tree for the cache");
    } finally {
      for (const dir of [project, cacheDir, ...states]) removeDir(dir);
    }
  });
});
