import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { CliReport } from "../../src/cli/report.ts";
import type { CheckResponse, CompactCheckResponse } from "../../src/core/contracts.ts";
import { BUNDLE, call, ciPath, CLEAN_PATH, connect, fixture, linkBin, removeDir, REPO, runCli, structured, tempDir } from "../helpers.ts";
import { skipUnless } from "../helpers/skips.ts";
import { guardTrees } from "../helpers/tree.ts";

describe("CLI", () => {
  guardTrees(() => ["bad-config", "clean", "sparse", "systemic-ts"].map(fixture));
  it("--version prints the package version", () => {
    const result = runCli(["--version"], { cwd: fixture("clean") });
    assert.equal(result.status, 0);
    assert.equal(result.stdout.trim(), JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).version);
  });

  it("check exits 0 on a clean project, 1 with issues", () => {
    const clean = runCli(["check"], { cwd: fixture("clean") });
    assert.equal(clean.status, 0, clean.stderr);
    assert.match(clean.stdout, /No issues found/);
    const sparse = runCli(["check"], { cwd: fixture("sparse") });
    assert.equal(sparse.status, 1);
    assert.match(sparse.stdout, /src\/index\.ts:7:3 {2}error {2}TS2322/);
  });

  it("--format json prints the CLI report", () => {
    const report = JSON.parse(runCli(["check", "--format", "json"], { cwd: fixture("systemic-ts") }).stdout) as CliReport;
    assert.equal(report.issues.length, 12);
    assert.equal(report.projectRoot, fixture("systemic-ts"));
  });

  it("--compact abbreviates the keys of the response format", () => {
    const compact = JSON.parse(runCli(["check", "--format", "response", "--compact"], { cwd: fixture("systemic-ts") }).stdout) as Record<string, unknown>;
    assert.equal(compact.v, "1.3");
    assert.equal(compact.total, 12);
    assert.ok(!("schemaVersion" in compact) && !("projectRoot" in compact) && !("totalIssues" in compact));
    const plain = JSON.parse(runCli(["check", "--format", "response"], { cwd: fixture("systemic-ts") }).stdout) as Record<string, unknown>;
    assert.equal(plain.totalIssues, 12);
  });

  it("--format github prints one annotation per issue", () => {
    const result = runCli(["check", "--format", "github", "src"], { cwd: fixture("systemic-ts") });
    const lines = result.stdout.trim().split("\n");
    assert.equal(lines.length, 12);
    // GitHub resolves annotation paths against the repository root (issue 19: they were project-relative).
    assert.ok(lines[0]?.startsWith(`::error file=${ciPath("systemic-ts", "src/audit.ts")},line=3,`), lines[0]);
    assert.match(lines[0] ?? "", /,title=tsc TS2322::Type 'string' is not assignable/);
  });

  it("checks only the named paths", () => {
    const result = JSON.parse(runCli(["check", "--format", "json", "src/search.ts"], { cwd: fixture("systemic-ts") }).stdout) as CliReport;
    assert.equal(result.issues.length, 2);
    assert.equal(result.filteredOutCount, 9, "tsc checks the whole program: its 9 other errors are counted, not shown");
  });

  it("exits 2 with a message naming the key on a bad config", () => {
    const result = runCli(["check"], { cwd: fixture("bad-config") });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /unknown key 'engines\.tscc'/);
    assert.match(result.stderr, /key 'timeoutsMs\.tsc'/);
  });

  it("exits 2 on usage errors", () => {
    assert.equal(runCli(["check", "--format", "xml"], { cwd: fixture("clean") }).status, 2);
    assert.equal(runCli(["frobnicate"], { cwd: fixture("clean") }).status, 2);
    assert.equal(runCli(["check", "--nope"], { cwd: fixture("clean") }).status, 2);
    assert.equal(runCli(["check", "../outside"], { cwd: fixture("clean") }).status, 2);
  });

  it("prints help when started on a terminal", { skip: skipUnless(!spawnSync("script", ["--version"]).error, "no script(1)", "ci-must-run") }, () => {
    const result = spawnSync("script", ["-qec", `${process.execPath} ${BUNDLE}`, "/dev/null"], { encoding: "utf8", cwd: fixture("clean"), timeout: 10_000 });
    assert.match(result.stdout, /Usage:/);
    assert.equal(result.status, 0);
  });
});

describe("server configuration", () => {
  it("refuses to start on a bad config, naming the key", () => {
    const result = spawnSync(process.execPath, [BUNDLE], { cwd: fixture("bad-config"), input: "", encoding: "utf8", timeout: 10_000 });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /unknown key 'engines\.tscc'/);
  });

  it("refuses to start on an invalid SIGNALINT_MCP_PAYLOAD", () => {
    const result = spawnSync(process.execPath, [BUNDLE], {
      cwd: fixture("clean"),
      input: "",
      encoding: "utf8",
      timeout: 10_000,
      env: { ...process.env, SIGNALINT_MCP_PAYLOAD: "xml" },
    });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /SIGNALINT_MCP_PAYLOAD: expected one of both, text, structured/);
  });

  it("serves the project named by SIGNALINT_PROJECT_ROOT", async () => {
    const session = await connect(REPO, { SIGNALINT_PROJECT_ROOT: fixture("sparse") });
    try {
      assert.deepEqual((await call(session.client, "ping")).structuredContent, { pong: true, projectRoot: fixture("sparse") });
      assert.equal(structured<CheckResponse>(await call(session.client, "check_project")).totalIssues, 1);
    } finally {
      await session.close();
    }
  });

  it("text mode: no output schemas, minified JSON text, no structuredContent", async () => {
    const session = await connect(fixture("sparse"), { SIGNALINT_MCP_PAYLOAD: "text" });
    try {
      const { tools } = await session.client.listTools();
      assert.ok(tools.every((tool) => tool.outputSchema === undefined));
      const result = await call(session.client, "check_project");
      assert.equal(result.structuredContent, undefined);
      assert.equal(result.content.length, 1);
      const text = result.content[0]?.type === "text" ? result.content[0].text : "";
      assert.equal((JSON.parse(text) as CheckResponse).totalIssues, 1);
      assert.ok(!text.includes("\n"), "minified");
      assert.deepEqual((await call(session.client, "ping")).content, [{ type: "text", text: "pong" }]);
    } finally {
      await session.close();
    }
  });

  it("structured mode: JSON first block, human summary for the user second, compact counts right", async () => {
    const session = await connect(fixture("systemic-ts"), { SIGNALINT_MCP_PAYLOAD: "structured", SIGNALINT_COMPACT: "1" });
    try {
      const result = await call(session.client, "check_project");
      const value = result.structuredContent as unknown as CompactCheckResponse;
      assert.equal(value.total, 12);
      assert.deepEqual(JSON.parse(result.content[0]?.type === "text" ? result.content[0].text : ""), value);
      const summary = result.content[1];
      assert.equal(summary?.type, "text");
      assert.deepEqual(summary?.annotations?.audience, ["user"]);
      assert.match(summary?.type === "text" ? summary.text : "", /^12 issues found/);
    } finally {
      await session.close();
    }
  });
});

describe("diagnostics outside the project root", () => {
  // The project's own tsc fails on an error in ../shared, which its tsconfig includes: never a clean answer (once it
  // was one, the error only counted as filtered out). It is reported on the tsconfig, its place leading the message.
  it("are reported on the tsconfig with their place, and fail the check as the project's own tsc fails", () => {
    const outer = tempDir("signalint-outside-root-");
    try {
      mkdirSync(join(outer, "shared"));
      mkdirSync(join(outer, "app", "src"), { recursive: true });
      writeFileSync(join(outer, "shared", "index.ts"), 'export const shared: number = "x";\n');
      writeFileSync(join(outer, "app", "tsconfig.json"), '{ "compilerOptions": { "strict": true, "noEmit": true }, "include": ["src", "../shared"] }');
      writeFileSync(join(outer, "app", "src", "index.ts"), "export const ok = 1;\n");
      linkBin(join(outer, "app"), "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
      const run = runCli(["check", "--format", "json"], { cwd: join(outer, "app") });
      assert.equal(run.status, 1, run.stderr);
      const report = JSON.parse(run.stdout) as CliReport;
      assert.equal(report.engines.tsc.status, "ok");
      assert.deepEqual(
        report.issues.map((issue) => [issue.file, issue.line, issue.col, issue.rule, issue.message]),
        [["tsconfig.json", 1, 1, "TS2322", "../shared/index.ts(1,14): Type 'string' is not assignable to type 'number'."]],
      );
      assert.equal(report.filteredOutCount ?? 0, 0);
    } finally {
      removeDir(outer);
    }
  });
});

describe("a read-only project", () => {
  const canSwitchUser = process.getuid?.() === 0 && spawnSync("su", ["nobody", "-s", "/bin/sh", "-c", "true"]).status === 0;
  it("is checked with a temporary state directory and a warning", {
    skip: skipUnless(canSwitchUser, "needs root and su to run as nobody", "ci-may-skip"),
  }, () => {
    const project = join(tempDir("signalint-readonly-"), "project");
    cpSync(fixture("sparse"), project, { recursive: true });
    linkBin(project, "tsc", join(REPO, "node_modules", "typescript", "bin", "tsc"));
    chmodSync(join(project, ".."), 0o755);
    spawnSync("chmod", ["-R", "a-w,a+rX", project]);
    try {
      // Its own TMPDIR: what the session leaves there is seen (nobody has no writable home: the cache is temporary too).
      const tmp = tempDir("signalint-readonly-tmp-");
      chmodSync(tmp, 0o777);
      const command = `cd ${JSON.stringify(project)} && TMPDIR=${JSON.stringify(tmp)} PATH=${JSON.stringify(CLEAN_PATH)} ${JSON.stringify(process.execPath)} ${JSON.stringify(BUNDLE)} check --format json`;
      const result = spawnSync("su", ["nobody", "-s", "/bin/sh", "-c", command], { encoding: "utf8" });
      const fallback = /is not writable .* using (\S+) for this session/.exec(result.stderr)?.[1];
      assert.ok(fallback, result.stderr);
      const report = JSON.parse(result.stdout) as CliReport;
      assert.equal(report.engines.tsc.status, "ok");
      assert.equal(report.issues.length, 1);
      assert.equal(existsSync(fallback), false, "the temporary state directory went with the session");
      assert.deepEqual(readdirSync(tmp), [], "so did the temporary cache directory");
    } finally {
      spawnSync("chmod", ["-R", "u+w", project]);
      removeDir(join(project, ".."));
    }
  });
});
