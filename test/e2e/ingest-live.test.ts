import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, describe, it } from "node:test";
import type { Live, WorkflowIssue } from "../../src/core/contracts.ts";
import { call, connect, errorOf, removeDir, scratchCopy, structured, type Connected } from "../helpers.ts";

const WORK = 'export const a: number = "one";\nexport function keep(): void {}\nexport const b: string = 2;\n';

/** Diagnostics as the three servers send them (only file/uri added, as an editor bridging publishDiagnostics does). */
function payload(project: string) {
  const uri = (file: string) => pathToFileURL(join(project, file)).href;
  const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });
  return [
    // 0: tsserver (typescript-language-server): numeric code, source "ts"
    {
      uri: uri("src/work.ts"),
      range: range(0, 13, 14),
      severity: 1,
      code: 2322,
      source: "ts",
      message: "Type 'string' is not assignable to type 'number'.",
      tags: [],
    },
    // 1: vscode-eslint: code as {value, target}
    {
      uri: uri("src/work.ts"),
      range: range(1, 16, 20),
      severity: 2,
      code: { value: "no-empty-function", target: "https://eslint.org/docs/latest/rules/no-empty-function" },
      source: "eslint",
      message: "Unexpected empty function 'keep'.",
    },
    // 2: eslint language server (LSP 3.16): string code plus codeDescription
    {
      uri: uri("src/work.ts"),
      range: range(2, 13, 14),
      severity: 2,
      code: "prefer-const",
      codeDescription: { href: "https://eslint.org/docs/latest/rules/prefer-const" },
      source: "eslint",
      message: "  Use   const.\n",
    },
    // 3: rust-analyzer / rustc: string code, multi-line message, relatedInformation and data
    {
      file: "src/lib.rs",
      range: range(4, 17, 24),
      severity: 1,
      code: "E0308",
      codeDescription: { href: "https://doc.rust-lang.org/error-index.html#E0308" },
      source: "rustc",
      message: "mismatched types\nexpected `u32`, found `&str`",
      relatedInformation: [{ location: { uri: uri("src/lib.rs"), range: range(4, 9, 12) }, message: "expected due to this" }],
      data: { rendered: "error[E0308]: mismatched types" },
    },
    // 4: rust-analyzer hint (severity 4): dropped and counted
    {
      file: "src/lib.rs",
      range: range(8, 0, 10),
      severity: 4,
      code: "inactive-code",
      source: "rust-analyzer",
      message: "code is inactive due to #[cfg] directives",
    },
    // 5: information (severity 3): dropped
    { file: "src/lib.rs", range: range(0, 0, 1), severity: 3, source: "rust-analyzer", message: "information" },
    // 6–12: refused shapes and places
    { uri: "file:///etc/passwd", range: range(0, 0, 1), severity: 1, message: "outside" },
    { uri: "https://example.com/a.ts", range: range(0, 0, 1), severity: 1, message: "not a file uri" },
    { file: "../escape.ts", range: range(0, 0, 1), severity: 1, message: "escape" },
    { file: "src/work.ts", range: { start: { line: -1, character: 0 } }, severity: 1, message: "bad range" },
    { file: "src/work.ts", range: range(0, 0, 1), severity: 7, message: "bad severity" },
    { file: "src/missing.ts", range: range(0, 0, 1), severity: 1, message: "no such file" },
    "not an object",
    // 13: absolute file path inside the root, no severity (editors show it as an error), serverName as source
    { file: join(project, "src/work.ts"), range: range(2, 0, 1), message: "from the server" },
  ];
}

describe("ingest_diagnostics and get_live_diagnostics", () => {
  let project: string;
  let session: Connected;
  before(async () => {
    project = scratchCopy("clean", "ingest");
    writeFileSync(join(project, "src", "work.ts"), WORK);
    writeFileSync(join(project, "src", "lib.rs"), 'fn main() {\n}\n\nfn f() {\n    let x: u32 = "no";\n}\n\n\n#[cfg(never)]\n');
    session = await connect(project);
  });
  after(async () => {
    await session.close();
    removeDir(project);
  });

  it("normalizes tsserver, eslint and rust-analyzer diagnostics and refuses bad items one by one", async () => {
    const result = structured<{ checkId: string; ingested: number; rejected: { index: number; reason: string }[] }>(
      await call(session.client, "ingest_diagnostics", { serverName: "multi", diagnostics: payload(project) }),
    );
    assert.equal(result.ingested, 5);
    assert.deepEqual(
      result.rejected.map((entry) => entry.index),
      [4, 5, 6, 7, 8, 9, 10, 11, 12],
    );
    const reasons = Object.fromEntries(result.rejected.map((entry) => [entry.index, entry.reason]));
    assert.match(reasons[4] as string, /severity 4 \(hint\) is not kept/);
    assert.match(reasons[5] as string, /severity 3 \(information\)/);
    assert.match(reasons[6] as string, /outside the project root/);
    assert.match(reasons[7] as string, /not a local file:\/\/ URI/);
    assert.match(reasons[8] as string, /escapes the project root/);
    assert.match(reasons[9] as string, /range must be/);
    assert.match(reasons[10] as string, /severity must be 1, 2, 3 or 4/);
    assert.match(reasons[11] as string, /does not exist/);
    assert.match(reasons[12] as string, /not an object/);
    const snapshot = structured<{ tool: string; scope: string[]; issues: WorkflowIssue[] }>(
      await call(session.client, "get_diagnostic_snapshot", { checkId: result.checkId }),
    );
    assert.equal(snapshot.tool, "ingest_diagnostics");
    assert.deepEqual(snapshot.scope, ["src/lib.rs", "src/work.ts"]);
    const brief = snapshot.issues.map(({ file, line, col, engine, rule, severity, message, source }) => ({
      file,
      line,
      col,
      engine,
      rule,
      severity,
      message,
      source,
    }));
    assert.deepEqual(brief, [
      {
        file: "src/lib.rs",
        line: 5,
        col: 18,
        engine: "lsp",
        rule: "E0308",
        severity: "error",
        message: "mismatched types expected `u32`, found `&str`",
        source: "rustc",
      },
      {
        file: "src/work.ts",
        line: 1,
        col: 14,
        engine: "lsp",
        rule: "TS2322",
        severity: "error",
        message: "Type 'string' is not assignable to type 'number'.",
        source: "ts",
      },
      {
        file: "src/work.ts",
        line: 2,
        col: 17,
        engine: "lsp",
        rule: "no-empty-function",
        severity: "warning",
        message: "Unexpected empty function 'keep'.",
        source: "eslint",
      },
      { file: "src/work.ts", line: 3, col: 1, engine: "lsp", rule: "multi", severity: "error", message: "from the server", source: "multi" },
      { file: "src/work.ts", line: 3, col: 14, engine: "lsp", rule: "prefer-const", severity: "warning", message: "Use const.", source: "eslint" },
    ]);
    assert.ok(snapshot.issues.every((issue) => /^[0-9a-f]{12,}$/.test(issue.issueId)));
    assert.equal(errorOf(await call(session.client, "ingest_diagnostics", { diagnostics: [], extra: 1 })).code, "invalid_arguments");
  });

  it("merges engine and ingested issues per file with provenance and marks files changed since observed", async () => {
    await call(session.client, "check_project");
    const live = structured<Live>(await call(session.client, "get_live_diagnostics", {}));
    const work = live.issues.filter((issue) => issue.file === "src/work.ts");
    assert.deepEqual([...new Set(work.map((issue) => issue.engine))].sort(), ["lsp", "tsc"]);
    assert.ok(work.some((issue) => issue.engine === "tsc" && issue.rule === "TS2322" && issue.line === 1));
    assert.ok(work.every((issue) => typeof issue.checkId === "string" && !Number.isNaN(Date.parse(issue.observedAt))));
    assert.deepEqual(live.files, [
      { file: "src/lib.rs", stale: false },
      { file: "src/work.ts", stale: false },
    ]);
    const warnings = structured<Live>(await call(session.client, "get_live_diagnostics", { severity: "warning" }));
    assert.ok(warnings.issues.length === 2 && warnings.issues.every((issue) => issue.severity === "warning"));

    writeFileSync(join(project, "src", "work.ts"), `${WORK}// edited\n`);
    const afterEdit = structured<Live>(await call(session.client, "get_live_diagnostics", { files: ["src/work.ts", "src/index.ts"] }));
    assert.deepEqual(afterEdit.files, [
      { file: "src/index.ts", stale: false },
      { file: "src/work.ts", stale: true },
    ]);
    await call(session.client, "check_files", { files: ["src/work.ts"] });
    const rechecked = structured<Live>(await call(session.client, "get_live_diagnostics", { files: ["src/work.ts"] }));
    assert.deepEqual(rechecked.files, [{ file: "src/work.ts", stale: false }]);
    // The editor's observation of lib.rs is untouched by a check of other files.
    const rust = structured<Live>(await call(session.client, "get_live_diagnostics", { files: ["src/lib.rs"] }));
    assert.deepEqual(
      rust.issues.map((issue) => [issue.engine, issue.source, issue.rule]),
      [["lsp", "rustc", "E0308"]],
    );
  });
});
