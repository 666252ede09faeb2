import assert from "node:assert/strict";
import { appendFileSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { CheckResponse, LoopStatus, NormalizedIssue } from "../../src/core/contracts.ts";
import { call, connect, errorOf, fixture, removeDir, scratchCopy, structured, tempDir, type Connected } from "../helpers.ts";

describe("tools over stdio", () => {
  let session: Connected;
  before(async () => {
    session = await connect(fixture("systemic-ts"));
  });
  after(async () => session.close());

  it("lists every tool with annotations and schemas", async () => {
    const { tools } = await session.client.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      [
        "ping",
        "check_project",
        "check_files",
        "get_issue_detail",
        "get_loop_status",
        "artifact_read",
        "get_diagnostic_snapshot",
        "compare_diagnostics",
        "after_edit_check",
        "ingest_diagnostics",
        "get_live_diagnostics",
        "preview_diagnostic_fix",
        "apply_diagnostic_fix",
        "discard_diagnostic_fix",
      ],
    );
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, "object");
      assert.equal(tool.outputSchema?.type, "object", `${tool.name} advertises an output schema`);
      assert.equal((tool.inputSchema as { additionalProperties?: unknown }).additionalProperties, false);
      assert.equal(tool.annotations?.openWorldHint, false);
      assert.equal(tool.annotations?.destructiveHint, tool.name === "apply_diagnostic_fix");
      assert.equal(typeof tool.annotations?.readOnlyHint, "boolean");
      assert.equal(typeof tool.annotations?.idempotentHint, "boolean");
    }
  });

  it("ping answers the literal pong and the project root", async () => {
    const result = await call(session.client, "ping");
    assert.deepEqual(result.content[0], { type: "text", text: "pong" });
    assert.deepEqual(result.structuredContent, { pong: true, projectRoot: fixture("systemic-ts") });
  });

  it("answers get_issue_detail with no_check before any check", async () => {
    const stale = structured(await call(session.client, "get_issue_detail", { clusterId: "c1" }));
    assert.equal(stale.status, "stale");
    assert.equal(stale.code, "no_check");
  });

  it("clusters the systemic error and expands it by clusterId, issueId and prefix", async () => {
    const first = structured<CheckResponse>(await call(session.client, "check_project", { paths: ["."] }));
    assert.equal(first.schemaVersion, "1.3");
    assert.equal(first.totalIssues, 12);
    const top = first.clusters[0];
    assert.ok(top);
    assert.equal(top.priority, 1);
    assert.equal(top.issueCount, 10);
    assert.equal(top.fileCount, 10);
    assert.deepEqual(top.ruleIds, ["TS2322"]);
    // The first check answers from the warm program it builds, so the cluster names the declaration the errors share.
    assert.match(top.rootCauseSummary, /^10 errors: `RetryPolicy\.backoffMs` \(src\/config\.ts:3\) is `number`; 10 sites in 10 files assign `string`/);
    assert.match(first.nextStep ?? "", new RegExp(top.clusterId));
    const { issues } = structured<{ issues: NormalizedIssue[] }>(await call(session.client, "get_issue_detail", { clusterId: top.clusterId }));
    assert.equal(issues.length, 10);
    // Asked by clusterId: the issues leave out the clusterId the request named (and fixable: false).
    assert.ok(issues.every((issue) => issue.clusterId === undefined && issue.fixable === undefined && issue.rule === "TS2322" && issue.line === 3));
    const one = issues[0] as NormalizedIssue;
    assert.ok(one.issueId.length >= 12);
    const byId = structured<{ issues: NormalizedIssue[] }>(await call(session.client, "get_issue_detail", { issueId: one.issueId }));
    assert.deepEqual(byId.issues, [{ ...one, clusterId: top.clusterId }]);
    const byPrefix = structured<{ issues: NormalizedIssue[] }>(await call(session.client, "get_issue_detail", { issueId: one.issueId.slice(0, 8) }));
    assert.deepEqual(byPrefix.issues, [{ ...one, clusterId: top.clusterId }]);

    const second = structured<CheckResponse>(await call(session.client, "check_project"));
    assert.notEqual(second.checkId, first.checkId, "every check gets its own id");
    assert.equal(second.clusters[0]?.clusterId, top.clusterId, "cluster ids are stable across checks");
    assert.deepEqual(second.clusters[0]?.sampleIssueIds, top.sampleIssueIds, "issue ids are stable across checks");
    const older = structured<{ issues: NormalizedIssue[] }>(
      await call(session.client, "get_issue_detail", { clusterId: top.clusterId, checkId: first.checkId }),
    );
    assert.equal(older.issues.length, 10);
  });

  it("distinguishes stale codes", async () => {
    const unknownCheck = structured(await call(session.client, "get_issue_detail", { clusterId: "c0000000", checkId: "chk-nope" }));
    assert.equal(unknownCheck.code, "check_unknown");
    const unknownCluster = structured(await call(session.client, "get_issue_detail", { clusterId: "c0000000" }));
    assert.equal(unknownCluster.code, "cluster_not_found");
    const unknownIssue = structured(await call(session.client, "get_issue_detail", { issueId: "ffffffffffff" }));
    assert.equal(unknownIssue.code, "issue_not_found");
  });

  const badInputs: [string, string, Record<string, unknown>, RegExp][] = [
    ["unknown property", "check_project", { paths: ["."], verbose: true }, /unknown property 'verbose'/],
    ["absolute path", "check_project", { paths: ["/etc"] }, /absolute/],
    ["escaping path", "check_files", { files: ["../x.ts"] }, /escapes the project root/],
    ["NUL", "check_files", { files: ["src/a\0.ts"] }, /NUL/],
    ["leading dash", "check_project", { paths: ["--fix"] }, /starts with '-'/],
    ["empty string", "check_files", { files: [""] }, /empty path/],
    ["513 paths", "check_project", { paths: Array.from({ length: 513 }, () => "src") }, /512/],
    ["wrong type", "check_files", { files: "src/users.ts" }, /files/],
    ["wrong item type", "check_project", { paths: [1] }, /paths/],
    ["missing files", "check_files", {}, /files/],
    ["empty files", "check_files", { files: [] }, /files/],
    ["missing file", "check_files", { files: ["src/nope.ts"] }, /does not exist/],
    ["directory as file", "check_files", { files: ["src"] }, /not a file/],
    ["both ids", "get_issue_detail", { clusterId: "c1", issueId: "abcd1234abcd" }, /exactly one/],
    ["neither id", "get_issue_detail", {}, /exactly one/],
    ["non-hex issue id", "get_issue_detail", { issueId: "zz" }, /hex/],
    ["unknown tool", "no_such_tool", {}, /Unknown tool/],
    ["ping with argument", "ping", { x: 1 }, /unknown property 'x'/],
  ];
  for (const [label, tool, args, pattern] of badInputs) {
    it(`refuses ${label} with a clear error and stays alive`, async () => {
      const error = errorOf(await call(session.client, tool, args));
      assert.match(error.message, pattern);
      assert.match(error.code, /^(invalid_arguments|invalid_path|path_not_found|unknown_tool)$/);
      assert.equal((await call(session.client, "ping")).content[0]?.type, "text");
    });
  }
});

describe("paths through symlinks", () => {
  let project: string;
  let session: Connected;
  before(async () => {
    project = scratchCopy("sparse", "symlinks");
    const outside = tempDir("signalint-outside-");
    writeFileSync(join(outside, "secret.ts"), "export const x: number = 'no';\n");
    symlinkSync(outside, join(project, "src", "linked-dir"));
    symlinkSync(join(outside, "secret.ts"), join(project, "src", "linked.ts"));
    symlinkSync(join(project, "src", "util.ts"), join(project, "src", "inside-link.ts"));
    session = await connect(project);
  });
  after(async () => {
    await session.close();
    removeDir(project);
  });

  it("refuses a directory symlink that leaves the root", async () => {
    assert.match(errorOf(await call(session.client, "check_project", { paths: ["src/linked-dir"] })).message, /symlink to outside the project root/);
  });
  it("refuses a file symlink that leaves the root", async () => {
    assert.match(errorOf(await call(session.client, "check_files", { files: ["src/linked.ts"] })).message, /symlink to outside the project root/);
  });
  it("accepts a symlink that stays inside", async () => {
    const response = structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/inside-link.ts"] }));
    assert.notEqual(response.status, "error");
  });
});

describe("check_files freshness and loop memory", () => {
  let project: string;
  let stateDir: string;
  let session: Connected;
  const file = () => join(project, "src", "index.ts");
  before(async () => {
    project = scratchCopy("sparse", "loops");
    stateDir = tempDir("signalint-loop-state-");
    session = await connect(project, { SIGNALINT_STATE_DIR: stateDir });
  });
  after(async () => {
    await session.close();
    removeDir(project);
    removeDir(stateDir);
  });

  const checkIndex = async () => structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/index.ts"] }));

  it("reports a new error in B after only its dependency A changed", async () => {
    const before = structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/util.ts"] }));
    assert.equal(before.totalIssues, 0);
    assert.equal(before.filteredOutIssueCount, 1, "the error in index.ts is outside the request");
    writeFileSync(join(project, "src", "consumer.ts"), 'import { joinUrl } from "./util";\nexport const url: string = joinUrl("h", 1);\n');
    assert.equal(structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/consumer.ts"] })).totalIssues, 0);
    writeFileSync(join(project, "src", "util.ts"), "export function joinUrl(host: string, port: number): number {\n  return host.length + port;\n}\n");
    const after = structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/consumer.ts"] }));
    assert.equal(after.totalIssues, 1);
    assert.equal((after.remainingIssues ?? [])[0]?.rule, "TS2322");
    assert.equal((after.remainingIssues ?? [])[0]?.file, "src/consumer.ts");
  });

  it("flags an issue fixed and reintroduced on its third appearance, and remembers it across restarts", async () => {
    const broken = readFileSync(file(), "utf8");
    const fixed = broken.replace('port: "8080"', "port: 8080");
    assert.equal((await checkIndex()).loopWarning, null); // appearance 1
    writeFileSync(file(), fixed);
    assert.equal((await checkIndex()).totalIssues, 0);
    writeFileSync(file(), broken);
    assert.equal((await checkIndex()).loopWarning, null); // appearance 2
    writeFileSync(file(), fixed);
    await checkIndex();
    writeFileSync(file(), broken);
    const third = await checkIndex(); // appearance 3
    assert.ok(third.loopWarning, "third appearance is flagged");
    assert.equal(third.loopWarning.signatures[0]?.signature, "TS2322:Type <identifier> is not assignable to type <identifier>.");
    assert.equal(third.loopWarning.signatures[0]?.occurrences, 3);
    assert.match(third.loopWarning.signatures[0]?.hint ?? "", /different approach/);

    const status = structured<LoopStatus>(await call(session.client, "get_loop_status"));
    assert.equal(status.looping, true);

    // Restart with a crash-truncated and a malformed line in the log: both are skipped, the memory survives.
    await session.close();
    appendFileSync(join(stateDir, "session.jsonl"), 'not json\n{"t":"check","at":"x","event":{"scope":["src/in');
    session = await connect(project, { SIGNALINT_STATE_DIR: stateDir });
    const replayed = structured<LoopStatus>(await call(session.client, "get_loop_status"));
    assert.deepEqual(replayed, status);
    assert.match(session.stderr(), /skipped 2 malformed line/);
    await checkIndex();
    const lines = readFileSync(join(stateDir, "session.jsonl"), "utf8").trimEnd().split("\n");
    assert.doesNotThrow(() => JSON.parse(lines.at(-1) as string), "a new line is never glued to a truncated one");
  });

  it("reports file/rule churn across consecutive incremental checks", async () => {
    for (const port of ['"1"', '"2"', '"3"']) {
      writeFileSync(file(), `export const a = 1;\n${"\n".repeat(port.length + Number(port[1]))}export const port: number = ${port};\n`);
      await checkIndex();
    }
    const status = structured<LoopStatus>(await call(session.client, "get_loop_status"));
    const churn = status.fileRuleChurns.find((entry) => entry.file === "src/index.ts" && entry.rule === "TS2322");
    assert.ok(churn, JSON.stringify(status));
    assert.ok(churn.checkCount >= 3);
  });
});
