import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { call, connect, errorOf, linkBin, removeDir, REPO, runCli, scratchCopy, structured, tempDir } from "../helpers.ts";
import { runtimeHardening } from "./hardening-runtimes.ts";

function checkJson(project: string, args: string[] = []): { status: number | null; response: CheckResponse } {
  const run = runCli(["check", ...args, "--format", "response"], { cwd: project });
  return { status: run.status, response: JSON.parse(run.stdout) as CheckResponse };
}

describe("tsconfig parsing (jsonc-parser)", () => {
  const projects: string[] = [];
  after(() => projects.forEach(removeDir));

  it("recognises a solution-style tsconfig.json that starts with a UTF-8 BOM and builds its references", () => {
    const project = scratchCopy("references", "bom");
    projects.push(project);
    const plain = checkJson(project);
    const config = join(project, "tsconfig.json");
    writeFileSync(config, `\uFEFF${readFileSync(config, "utf8")}`);
    const bom = checkJson(project);
    assert.equal(plain.response.totalIssues, 5);
    assert.equal(bom.status, 1);
    assert.equal(bom.response.status, "issues_found");
    assert.deepEqual(bom.response.engines.tsc, plain.response.engines.tsc);
    assert.deepEqual(bom.response.clusters, plain.response.clusters);
  });

  it("never answers clean for a tsconfig.json that does not parse: tsc reports the syntax error", () => {
    const project = scratchCopy("references", "bad-tsconfig");
    projects.push(project);
    writeFileSync(join(project, "tsconfig.json"), '{\n  "files": [],\n  "references": [{ "path": "./packages/core" } { "path": "./packages/app" }]\n}\n');
    const { status, response } = checkJson(project);
    assert.notEqual(response.status, "clean");
    assert.equal(status, 1);
    assert.ok(
      (response.remainingIssues ?? []).some((issue) => issue.rule === "TS1005" && issue.file === "tsconfig.json"),
      JSON.stringify(response.remainingIssues),
    );
  });
});

describe("artifacts over MCP", () => {
  let project: string;
  before(() => {
    project = scratchCopy("clean", "artifacts");
    mkdirSync(join(project, "src", "many"), { recursive: true });
    for (let i = 0; i < 90; i++) writeFileSync(join(project, "src", "many", `module${i}.ts`), `export const value${i}: number = "not a number ${i}";\n`);
  });
  after(() => removeDir(project));

  it("an oversized result whose artifact cannot be written is an isError artifact_write_failed result", async () => {
    const stateDir = tempDir("signalint-state-");
    try {
      const session = await connect(project, { SIGNALINT_STATE_DIR: stateDir, SIGNALINT_STRUCTURED_MAX_BYTES: "16384" });
      try {
        const check = structured<CheckResponse>(await call(session.client, "check_project"));
        writeFileSync(join(stateDir, "artifacts"), "not a directory");
        const error = errorOf(await call(session.client, "get_issue_detail", { clusterId: check.clusters[0]?.clusterId as string }));
        assert.equal(error.code, "artifact_write_failed");
      } finally {
        await session.close();
      }
    } finally {
      removeDir(stateDir);
    }
  });

  it("a damaged artifact answers artifact_corrupt", async () => {
    const stateDir = tempDir("signalint-state-");
    try {
      const session = await connect(project, { SIGNALINT_STATE_DIR: stateDir, SIGNALINT_STRUCTURED_MAX_BYTES: "16384" });
      try {
        const check = structured<CheckResponse>(await call(session.client, "check_project"));
        const detail = await call(session.client, "get_issue_detail", { clusterId: check.clusters[0]?.clusterId as string });
        const { artifactId } = (detail.structuredContent as { incomplete: { artifactId: string } }).incomplete;
        assert.equal(structured<{ eof: boolean }>(await call(session.client, "artifact_read", { artifactId, maxBytes: 100 })).eof, false);
        const file = join(stateDir, "artifacts", readdirSync(join(stateDir, "artifacts")).find((name) => name.startsWith(artifactId)) as string);
        writeFileSync(file, readFileSync(file, "utf8").replace("src/many/module", "src/many/modulf"));
        assert.equal(errorOf(await call(session.client, "artifact_read", { artifactId, maxBytes: 100 })).code, "artifact_corrupt");
      } finally {
        await session.close();
      }
    } finally {
      removeDir(stateDir);
    }
  });
});

describe("fullMessage in get_issue_detail", () => {
  const CHAIN = [
    "Argument of type '(a: number) => void' is not assignable to parameter of type '(a: string) => void'.",
    "  Types of parameters 'a' and 'a' are incompatible.",
    "    Type 'string' is not assignable to type 'number'.",
  ].join("\n");
  const LONG_RULE_TEXT = `Do not leave debugger statements: ${"they stop every reader of this code in the middle of their work, ".repeat(3)}end.`;
  const projects: string[] = [];
  after(() => projects.forEach(removeDir));

  function chainProject(label: string): string {
    const project = scratchCopy("sparse", label);
    projects.push(project);
    writeFileSync(join(project, "src", "chain.ts"), "declare function g(cb: (a: string) => void): void;\ng((a: number) => {});\nexport {};\n");
    return project;
  }

  /** The detail of the chain diagnostic, after asserting the check response keeps only the 120-character form. */
  async function chainDetail(
    session: Awaited<ReturnType<typeof connect>>,
    files?: string[],
  ): Promise<{ message: string; fullMessage?: string; mode?: string }> {
    const response = structured<CheckResponse>(await call(session.client, files ? "check_files" : "check_project", files ? { files } : {}));
    const listed = (response.remainingIssues ?? []).find((issue) => issue.file === "src/chain.ts" && issue.rule === "TS2345");
    assert.ok(listed, JSON.stringify(response.remainingIssues));
    assert.ok(listed.message.length <= 120);
    assert.ok(!JSON.stringify(response).includes("fullMessage"), "check responses stay small");
    const detail = structured<{ issues: { message: string; fullMessage?: string }[] }>(
      await call(session.client, "get_issue_detail", { issueId: listed.issueId }),
    );
    return { ...(detail.issues[0] as { message: string; fullMessage?: string }), mode: response.cache?.tsc?.mode };
  }

  for (const [label, tsc] of [
    ["TypeScript 5", null],
    ["TypeScript 7", "typescript7"],
  ] as const) {
    it(`${label}: the cut message's whole chain, the same from the command line and the warm program`, async () => {
      const project = chainProject(`full-${tsc ?? "ts5"}`);
      if (tsc) linkBin(project, "tsc", join(REPO, "node_modules", tsc, "bin", "tsc"));
      const cold = await connect(project, { SIGNALINT_WARM_TYPESCRIPT: "0" });
      try {
        const detail = await chainDetail(cold);
        assert.ok(detail.message.endsWith("…"));
        assert.equal(detail.fullMessage, CHAIN);
      } finally {
        await cold.close();
      }
      const warm = await connect(project);
      try {
        await chainDetail(warm);
        const detail = await chainDetail(warm, ["src/chain.ts"]);
        assert.match(detail.mode ?? "", /^warm-/);
        assert.equal(detail.fullMessage, CHAIN);
      } finally {
        await warm.close();
      }
    });
  }

  it("ESLint: a rule message over 120 characters comes back whole", async () => {
    const project = scratchCopy("eslint-flat", "full-eslint");
    projects.push(project);
    writeFileSync(
      join(project, "eslint.config.js"),
      `export default [{ files: ["**/*.js"], rules: { "no-restricted-syntax": ["error", { selector: "DebuggerStatement", message: ${JSON.stringify(LONG_RULE_TEXT)} }] } }];\n`,
    );
    writeFileSync(join(project, "src", "stop.js"), "export function stop() {\n  debugger;\n}\n");
    const session = await connect(project);
    try {
      const response = structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/stop.js"] }));
      const listed = (response.remainingIssues ?? []).find((issue) => issue.engine === "eslint" && issue.rule === "no-restricted-syntax");
      assert.ok(listed, JSON.stringify(response.remainingIssues));
      assert.equal(listed.message.length, 120);
      const detail = structured<{ issues: { fullMessage?: string }[] }>(await call(session.client, "get_issue_detail", { issueId: listed.issueId }));
      assert.equal(detail.issues[0]?.fullMessage, LONG_RULE_TEXT);
    } finally {
      await session.close();
    }
  });
});

runtimeHardening("node");
