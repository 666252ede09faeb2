import assert from "node:assert/strict";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse, NormalizedIssue } from "../../src/core/contracts.ts";
import { call, connect, eachReport, everyIssue, linkPackage, removeDir, REPO, runCli, scratchCopy, structured, type Connected } from "../helpers.ts";
import { rawOxlint } from "../raw-engines.ts";

/** The native tsgolint of this machine's platform package (what oxlint-tsgolint's own bin runs). */
const PLATFORM_DIR = join(REPO, "node_modules", "@oxlint-tsgolint");
const TSGOLINT = join(PLATFORM_DIR, readdirSync(PLATFORM_DIR)[0] as string, process.platform === "win32" ? "tsgolint.exe" : "tsgolint");

async function oxlintIssues(session: Connected, response: CheckResponse): Promise<string[]> {
  const reports = eachReport(await everyIssue(session, response));
  return reports
    .filter((issue) => issue.engine === "oxlint")
    .map((issue) => `${issue.file}:${issue.line} ${issue.rule}`)
    .sort();
}

const rawKeys = (project: string, tsgolint?: string) =>
  rawOxlint(project, tsgolint ? { tsgolint } : {})
    .map((d) => `${d.file}:${d.line} ${d.rule}`)
    .sort();

describe("oxlint --type-aware with oxlint-tsgolint installed", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("runs the type-aware rules like `oxlint --type-aware`, and never serves a stale type-aware result from the cache", async () => {
    const project = scratchCopy("type-aware");
    dirs.push(project);
    linkPackage(project, "oxlint-tsgolint", join(REPO, "node_modules", "oxlint-tsgolint"));
    const expected = rawKeys(project, TSGOLINT);
    assert.deepEqual(
      expected.filter((key) => key.includes("no-floating-promises")),
      ["src/main.ts:4 typescript(no-floating-promises)", "src/main.ts:5 typescript(no-floating-promises)"],
    );
    const session = await connect(project);
    try {
      const response = structured<CheckResponse>(await call(session.client, "check_project"));
      assert.equal(response.engines.oxlint.status, "ok");
      assert.deepEqual(await oxlintIssues(session, response), expected);
      const first = structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/main.ts"] }));
      assert.equal((await oxlintIssues(session, first)).filter((key) => key.includes("no-floating-promises")).length, 2);
      // main.ts is unchanged; what it calls no longer returns a promise: a file-local cache would answer stale.
      writeFileSync(join(project, "src", "api.ts"), "export function save(value: string): string {\n  return value;\n}\n\nexport function later(): void {}\n");
      const second = structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/main.ts"] }));
      assert.deepEqual(second.cache?.oxlint, { hits: 0, misses: 1 }, "type-aware runs are not cached");
      assert.equal((await oxlintIssues(session, second)).filter((key) => key.includes("no-floating-promises")).length, 0);
      assert.deepEqual(await oxlintIssues(session, structured<CheckResponse>(await call(session.client, "check_project"))), rawKeys(project, TSGOLINT));
    } finally {
      await session.close();
    }
  });

  it('is off with "oxlintTypeAware": false (and without oxlint-tsgolint), like plain `oxlint`', async () => {
    const withSwitch = scratchCopy("type-aware", "type-aware-off");
    const without = scratchCopy("type-aware", "type-aware-none");
    dirs.push(withSwitch, without);
    linkPackage(withSwitch, "oxlint-tsgolint", join(REPO, "node_modules", "oxlint-tsgolint"));
    writeFileSync(join(withSwitch, "signalint.config.json"), JSON.stringify({ oxlintTypeAware: false }));
    for (const project of [withSwitch, without]) {
      const session = await connect(project);
      try {
        const response = structured<CheckResponse>(await call(session.client, "check_project"));
        const issues = await oxlintIssues(session, response);
        assert.deepEqual(issues, rawKeys(project));
        assert.ok(!issues.some((key) => key.includes("no-floating-promises")));
      } finally {
        await session.close();
      }
    }
    const doctor = runCli(["doctor"], { cwd: withSwitch });
    assert.match(doctor.stdout, /--type-aware off \(oxlintTypeAware: false\); oxlint-tsgolint \d/);
  });

  it("refuses a non-boolean oxlintTypeAware", () => {
    const project = scratchCopy("type-aware", "type-aware-bad");
    dirs.push(project);
    writeFileSync(join(project, "signalint.config.json"), JSON.stringify({ oxlintTypeAware: "no" }));
    const result = runCli(["check"], { cwd: project });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /key 'oxlintTypeAware': /, "a known key with a wrong type");
    assert.doesNotMatch(result.stderr, /unknown key/);
  });
});
