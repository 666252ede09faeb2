import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { clusterIssues } from "../../src/core/cluster.ts";
import { parseConfigFile, resolveSettings } from "../../src/core/config.ts";
import { ConfigError, InvalidArgumentsError } from "../../src/core/errors.ts";
import { compileIgnore } from "../../src/core/glob.ts";
import { normalizeIssues, type RawIssue } from "../../src/core/issues.ts";
import { parseJsonc } from "../../src/core/jsonc.ts";
import { LoopTracker, loopEventFromIssues } from "../../src/core/loops.ts";
import { normalizeMessage, templateSignature } from "../../src/core/normalize.ts";
import { normalizePathList, normalizeRelativePath } from "../../src/core/paths.ts";
import { checkStatus, incompleteFiles } from "../../src/core/completeness.ts";
import { compactCheckResponse } from "../../src/core/response.ts";
import { canonicalRule } from "../../src/core/rules.ts";
import { checkResponse, enginesWith, hash, OK_ENGINES } from "../helpers/check-response.ts";

const raw = (overrides: Partial<RawIssue>): RawIssue => ({
  file: "src/a.ts",
  line: 1,
  col: 1,
  engine: "tsc",
  rule: "TS2322",
  severity: "error",
  message: "Type 'string' is not assignable to type 'number'.",
  fixable: false,
  ...overrides,
});

describe("messages", () => {
  it("collapses whitespace and cuts at 120 characters with an ellipsis", () => {
    assert.equal(normalizeMessage("  a \n\t b  "), "a b");
    const long = normalizeMessage("word ".repeat(60));
    assert.equal(long.length, 120);
    assert.ok(long.endsWith("…"));
  });
  it("templates identifiers and numbers in signatures", () => {
    assert.equal(templateSignature("'x' is declared but 3 times"), "<identifier> is declared but <n> times");
  });
});

describe("paths", () => {
  it("normalizes and refuses with the reason", () => {
    assert.equal(normalizeRelativePath("./src//a/../b.ts"), "src/b.ts");
    assert.equal(normalizeRelativePath("."), ".");
    assert.equal(normalizeRelativePath("src\\win.ts", { windows: true }), "src/win.ts");
    assert.throws(() => normalizeRelativePath("src\\win.ts"), /contains '\\'/, "on POSIX a backslash is a name character, never read as a separator");
    for (const [bad, reason] of [
      ["", /empty/],
      ["/etc", /absolute/],
      ["C:\\x", /absolute/],
      ["../x", /escapes/],
      ["a/../../x", /escapes/],
      ["a\0b", /NUL/],
      ["-rf", /'-'/],
    ] as const) {
      assert.throws(
        () => normalizeRelativePath(bad),
        (error: unknown) => error instanceof InvalidArgumentsError && reason.test(error.message),
      );
    }
    assert.throws(() => normalizePathList(Array.from({ length: 513 }, () => "a")), /512/);
    assert.deepEqual(normalizePathList(["a", "./a"]), ["a"]);
  });
});

describe("globs and JSONC", () => {
  it("matches *, ** and ? like .gitignore", () => {
    const ignored = compileIgnore(["dist", "**/*.gen.ts", "src/legacy/*", "?.js"]);
    assert.ok(ignored("dist/a.js"));
    assert.ok(ignored("src/x/y.gen.ts"));
    assert.ok(ignored("src/legacy/a.ts"));
    assert.ok(ignored("lib/a.js"));
    assert.ok(!ignored("src/a.ts"));
    assert.ok(!ignored("src/legacy2/a.ts"));
  });
  it("parses comments and trailing commas but keeps // inside strings", () => {
    assert.deepEqual(parseJsonc('{ // c\n "a": "http://x", /* b */ "b": [1,], }'), { a: "http://x", b: [1] });
  });
});

describe("configuration", () => {
  it("names the offending key", () => {
    assert.throws(
      () => parseConfigFile('{"engines":{"tscc":true}}'),
      (e: unknown) => e instanceof ConfigError && /unknown key 'engines.tscc'/.test(e.message),
    );
    assert.throws(() => parseConfigFile('{"maxClusters":"ten"}'), /key 'maxClusters'/);
    assert.throws(() => parseConfigFile("{oops"), /not valid JSON \(InvalidSymbol at line 1, column 2\)/);
    assert.deepEqual(parseConfigFile('\uFEFF{ "compact": true, // a BOM and a comment\n }'), { compact: true });
  });
  it("applies precedence: non-empty environment, then config, then default", () => {
    const config = parseConfigFile('{"mcpPayload":"text","compact":true,"structuredMaxBytes":1}');
    const none = resolveSettings(config, () => undefined);
    assert.equal(none.payloadMode, "text");
    assert.equal(none.compact, true);
    assert.equal(none.structuredMaxBytes, 16_384, "clamped");
    const env: Record<string, string> = { SIGNALINT_MCP_PAYLOAD: " structured ", SIGNALINT_COMPACT: "0", SIGNALINT_STRUCTURED_MAX_BYTES: "99999999" };
    const withEnv = resolveSettings(config, (name) => env[name]);
    assert.equal(withEnv.payloadMode, "structured");
    assert.equal(withEnv.compact, false);
    assert.equal(withEnv.structuredMaxBytes, 16_777_216);
    assert.equal(resolveSettings(config, (name) => (name === "SIGNALINT_MCP_PAYLOAD" ? "  " : undefined)).payloadMode, "text", "blank env is ignored");
    assert.throws(() => resolveSettings({}, (name) => (name === "SIGNALINT_MCP_PAYLOAD" ? "json" : undefined)), /SIGNALINT_MCP_PAYLOAD/);
    assert.equal(resolveSettings({}, (name) => (name === "signalint_mcp_payload" ? "json" : undefined)).payloadMode, "both", "names are case-sensitive");
  });
  it("reads the progress heartbeat with the other variables: default, clamped, an invalid value refused", () => {
    const heartbeat = (value: string | undefined) =>
      resolveSettings({}, (name) => (name === "SIGNALINT_PROGRESS_HEARTBEAT_MS" ? value : undefined)).progressHeartbeatMs;
    assert.equal(heartbeat(undefined), 5000);
    assert.equal(heartbeat(" 50 "), 50);
    assert.equal(heartbeat("1"), 10);
    assert.equal(heartbeat("999999"), 10_000);
    assert.throws(() => heartbeat("soon"), /SIGNALINT_PROGRESS_HEARTBEAT_MS: expected a whole number of milliseconds, got "soon"/);
  });
  it("reads the persisted-state bound with the other variables: default 512, 0 turns persisting off, an invalid value refused", () => {
    const cacheMax = (value: string | undefined) => resolveSettings({}, (name) => (name === "SIGNALINT_CACHE_MAX_MB" ? value : undefined)).persistMaxMB;
    assert.equal(cacheMax(undefined), 512);
    assert.equal(cacheMax("0"), 0);
    assert.equal(cacheMax(" 64 "), 64);
    assert.throws(() => cacheMax("lots"), /SIGNALINT_CACHE_MAX_MB must be a whole number of megabytes, not "lots"/);
  });
});

describe("issues", () => {
  it("canonicalizes rule names across engines", () => {
    assert.equal(canonicalRule("oxlint", "eslint(no-unused-vars)"), "no-unused-vars");
    assert.equal(canonicalRule("eslint", "@typescript-eslint/no-unused-vars"), "no-unused-vars");
    assert.equal(canonicalRule("biome", "lint/correctness/noUnusedVariables"), "no-unused-vars");
    assert.equal(canonicalRule("biome", "lint/suspicious/noDebugger"), "no-debugger");
    assert.equal(canonicalRule("tsc", "TS6133"), "no-unused-vars");
  });
  it("merges the same problem from two engines and keeps the error", () => {
    const issues = normalizeIssues(
      [
        raw({ line: 2, rule: "TS6133", message: "'x' is declared but its value is never read." }),
        raw({ line: 2, col: 7, engine: "oxlint", rule: "eslint(no-unused-vars)", severity: "warning", message: "Variable 'x' is declared but never used." }),
      ],
      hash,
    );
    assert.equal(issues.length, 1);
    assert.equal(issues[0]?.engine, "tsc");
    assert.deepEqual(issues[0]?.alsoReportedBy, [{ engine: "oxlint", rule: "eslint(no-unused-vars)" }]);
  });
  it("never merges two reports from the same engine, and keeps ids unique and stable", () => {
    const input = [raw({}), raw({ col: 9 })];
    const a = normalizeIssues(input, hash);
    assert.equal(a.length, 2);
    assert.notEqual(a[0]?.issueId, a[1]?.issueId);
    assert.deepEqual(
      normalizeIssues(input, hash).map((i) => i.issueId),
      a.map((i) => i.issueId),
    );
    assert.ok((a[0]?.issueId.length ?? 0) >= 12);
  });
  it("one tsc report per diagnostic across programs, whatever order a union's members are printed in", () => {
    // As excalidraw's programs printed one error: a program checked whole and one re-checking a few files.
    const union = (first: string) => `Argument of type '"a"' is not assignable to parameter of type 'Omit<T, ${first} | ... 19 more ... | "customData">'.`;
    const issues = normalizeIssues(
      [
        raw({ line: 59, col: 25, rule: "TS2345", message: union('"width"') }),
        raw({ line: 59, col: 25, rule: "TS2345", message: union('"link"') }),
        // Another place, and another code at the same place: other diagnostics.
        raw({ line: 60, col: 25, rule: "TS2345", message: union('"link"') }),
        raw({ line: 59, col: 25, rule: "TS2322", message: union('"link"') }),
      ],
      hash,
    );
    assert.deepEqual(
      issues.map((issue) => `${issue.line}:${issue.rule}:${issue.message.includes('"width"') ? "first" : "second"}`),
      ["59:TS2322:second", "59:TS2345:first", "60:TS2345:second"],
    );
  });
});

describe("clusters and responses", () => {
  const systemic = Array.from({ length: 4 }, (_, i) => raw({ file: `src/f${i}.ts` }));
  const warnings = [
    raw({ engine: "oxlint", rule: "eslint(no-debugger)", severity: "warning", message: "x", file: "src/a.ts", line: 5 }),
    raw({ engine: "oxlint", rule: "eslint(no-debugger)", severity: "warning", message: "x", file: "src/a.ts", line: 9 }),
  ];
  const single = raw({ rule: "TS2304", message: "Cannot find name 'y'.", file: "src/z.ts" });
  it("orders clusters by priority and marks systemic errors P1", () => {
    const issues = normalizeIssues([...warnings, ...systemic, single], hash);
    const groups = clusterIssues(issues, hash);
    assert.deepEqual(
      groups.map((g) => [g.cluster.priority, g.cluster.issueCount]),
      [
        [1, 4],
        [4, 2],
      ],
    );
    assert.equal(issues.find((i) => i.rule === "TS2304")?.clusterId, null);
  });
  it("a check the project's own linter could not lint is incomplete whatever it found (issue 33: never clean on a mix)", () => {
    // Found on ky (linted by xo): after an export rename, after_edit_check said issues_found where the other steps said error.
    const found = checkResponse([single], { unlinted: ["xo"] }).response;
    assert.equal(found.status, "error");
    assert.match(found.nextStep ?? "", /^Fix src\/z\.ts:1 \(TS2304\) first.* lints with xo, which Signalint did not run/);
    const nothing = checkResponse([], { unlinted: ["xo"] }).response;
    assert.equal(nothing.status, "error");
    assert.match(nothing.nextStep ?? "", /^No issues reported, but the project lints with xo/);
    assert.equal(checkResponse([single]).response.status, "issues_found");
    assert.equal(checkResponse([]).response.status, "clean");
  });
  it("caps clusters and remaining issues and counts the rest", () => {
    const { response } = checkResponse([...warnings, ...systemic, single], { filteredOutIssueCount: 2, maxClusters: 1, maxRemainingIssues: 2 });
    assert.equal(response.truncated, true);
    assert.equal(response.clusters.length, 1);
    assert.equal((response.remainingIssues ?? []).length, 2);
    assert.equal((response.remainingIssues ?? [])[0]?.rule, "TS2304", "errors come first");
    assert.equal(response.omittedIssueCount, 1);
    assert.equal(response.totalIssues, 7);
    const compact = compactCheckResponse(response);
    assert.equal(compact.total, 7);
    assert.equal(compact.omitted, 1);
    assert.equal(compact.filteredOut, 2);
    assert.ok(!("projectRoot" in compact) && !("totalIssues" in compact));
  });
  it("never calls a check clean when an engine failed or none ran", () => {
    const { response: failed } = checkResponse([], { engines: { ...OK_ENGINES, tsc: { status: "error", message: "boom" } } });
    assert.equal(failed.status, "error");
    const { response: none } = checkResponse([], { engines: enginesWith() });
    assert.equal(none.status, "error");
  });
});

describe("loop memory", () => {
  const issue = normalizeIssues([raw({ file: "src/a.ts" })], hash);
  const other = normalizeIssues([raw({ file: "src/b.ts" })], hash);
  it("counts an appearance only after a check that covered the file saw it gone", () => {
    const tracker = new LoopTracker();
    tracker.record(loopEventFromIssues(issue, ["src/a.ts"], true));
    tracker.record(loopEventFromIssues([], ["src/b.ts"], true)); // a.ts not looked at: still present
    tracker.record(loopEventFromIssues(issue, ["src/a.ts"], true));
    assert.equal(tracker.status().looping, false);
    for (let i = 0; i < 2; i++) {
      tracker.record(loopEventFromIssues([], ["src/a.ts"], true));
      tracker.record(loopEventFromIssues(issue, ["src/a.ts"], true));
    }
    const status = tracker.status();
    assert.equal(status.signatures[0]?.occurrences, 3);
    const saved = tracker.save();
    const restored = new LoopTracker();
    restored.load(JSON.parse(JSON.stringify(saved)));
    assert.deepEqual(restored.status(), status);
  });
  it("sees a fix-and-reintroduce loop in one file while the same message stands in another", () => {
    const tracker = new LoopTracker();
    for (let i = 0; i < 5; i++) tracker.record(loopEventFromIssues(i % 2 ? other : [...issue, ...other], ["."], false));
    assert.equal(tracker.status().signatures[0]?.occurrences, 3);
  });
});

describe("completeness", () => {
  const gaps = (typed: string[], untyped: string[], named: string[] = []) => ({ typed, untyped: new Set(untyped), named: new Set(named) });

  it("an unchecked .svelte, .vue or .astro file is a gap whether named or found; a found .mdx or .ts is a note", () => {
    const typed = ["src/a.ts", "src/b.ts", "src/App.svelte", "src/C.vue", "src/d.astro", "docs/intro.mdx", "test/x.spec.ts"];
    const untyped = ["src/App.svelte", "src/C.vue", "src/d.astro", "docs/intro.mdx", "test/x.spec.ts"];
    assert.deepEqual(incompleteFiles(gaps(typed, untyped)), ["src/App.svelte", "src/C.vue", "src/d.astro"]);
  });

  it("a named .mdx or .ts file nothing type-checked is a gap", () => {
    const typed = ["src/a.ts", "docs/intro.mdx", "test/x.spec.ts"];
    const untyped = ["docs/intro.mdx", "test/x.spec.ts"];
    assert.deepEqual(incompleteFiles(gaps(typed, untyped, ["docs/intro.mdx", "test/x.spec.ts"])), ["docs/intro.mdx", "test/x.spec.ts"]);
  });

  it("when nothing was type-checked at all, every unchecked file is a gap", () => {
    assert.deepEqual(incompleteFiles(gaps(["docs/intro.mdx", "test/x.spec.ts"], ["docs/intro.mdx", "test/x.spec.ts"])), ["docs/intro.mdx", "test/x.spec.ts"]);
  });

  it("a check with a gap is an error, not clean, whatever was found", () => {
    assert.equal(checkStatus({ engines: OK_ENGINES, issueCount: 0, incomplete: ["src/App.svelte"] }), "error");
    assert.equal(checkStatus({ engines: OK_ENGINES, issueCount: 0, incomplete: [] }), "clean");
  });
});
