import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseBiomeOutput } from "../../src/engines/biome.ts";
import { parseEslintOutput } from "../../src/engines/eslint.ts";
import { parseOxlintOutput } from "../../src/engines/oxlint.ts";
import { parseTscOutput } from "../../src/engines/tsc.ts";
import { parseTscFixAnswer } from "../../src/engines/tsc-fix.ts";
import type { SpawnResult } from "../../src/runtime/types.ts";
import { fixture, runCli } from "../helpers.ts";

const result = (stdout: string, exitCode = 0, stderr = ""): SpawnResult => ({
  exitCode,
  signal: null,
  stdout,
  stderr,
  timedOut: false,
  outputExceeded: false,
  spawnError: null,
  durationMs: 1,
});
const same = (path: string) => path;

describe("strict parsers: malformed output is an engine error, never an empty success", () => {
  it("oxlint", () => {
    for (const bad of ["", "not json", "{}", '{"diagnostics":[{"nomessage":1}]}']) {
      const outcome = parseOxlintOutput(result(bad), same);
      assert.equal(outcome.ok, false, JSON.stringify(bad));
    }
    const preamble = parseOxlintOutput(result('No files found to lint.\n{ "diagnostics": [] }', 1), same);
    assert.deepEqual(preamble, { ok: true, issues: [] });
  });
  it("tsc", () => {
    assert.equal(parseTscOutput(result("Segmentation fault\n", 139), same, "tsconfig.json").ok, false);
    assert.equal(parseTscOutput(result("", 1, "Error: Cannot find module 'x'"), same, "tsconfig.json").ok, false, "non-zero with nothing parsed");
    const multi = parseTscOutput(
      result("a.ts(1,2): error TS2322: Type A\n  Types of property 'x' are incompatible.\nerror TS18003: No inputs were found.\n", 2),
      same,
      "tsconfig.json",
    );
    assert.ok(multi.ok);
    assert.equal(multi.issues[0]?.message, "Type A\n  Types of property 'x' are incompatible.", "the chain's lines are kept for fullMessage");
    assert.deepEqual([multi.issues[1]?.file, multi.issues[1]?.line, multi.issues[1]?.rule], ["tsconfig.json", 1, "TS18003"]);
    // Config and global diagnostics concern the whole program: kept whatever files a check asked about.
    const config = parseTscOutput(result("tsconfig.json(2,21): error TS1005: ',' expected.\nsrc/a.ts(1,1): error TS2322: x\n", 2), same, "tsconfig.json");
    assert.deepEqual(config.ok && config.issues.map((issue) => issue.programWide === true), [true, false]);
    assert.equal(multi.issues[1]?.programWide, true);
    const outside = parseTscOutput(result("../other/x.ts(1,1): error TS1: outside\n  elaboration\n", 2), () => null, "tsconfig.json");
    assert.deepEqual(outside, { ok: true, issues: [] }, "issues outside the root are dropped with their elaboration");
  });
  it("eslint", () => {
    assert.equal(parseEslintOutput(result("", 2, "Oops! Something went wrong! :("), same).ok, false);
    assert.equal(parseEslintOutput(result("{}", 0), same).ok, false);
    assert.equal(parseEslintOutput(result('[{"filePath":"a.js"}]', 0), same).ok, false);
    const fatal = parseEslintOutput(
      result('[{"filePath":"a.js","messages":[{"ruleId":null,"fatal":true,"severity":2,"message":"Parsing error: x","line":3,"column":4}]}]', 1),
      same,
    );
    assert.ok(fatal.ok);
    assert.deepEqual([fatal.issues[0]?.rule, fatal.issues[0]?.severity], ["parse-error", "error"]);
  });
  it("biome", () => {
    assert.equal(parseBiomeOutput(result("", 1, "configuration error"), same).ok, false);
    assert.equal(parseBiomeOutput(result('{"summary":{}}'), same).ok, false);
    assert.equal(parseBiomeOutput(result('{"diagnostics":[{"severity":"error","message":"bad biome.json","category":"configuration"}]}', 1), same).ok, false);
  });
});

describe("severity and fixable mapping on real engine output", () => {
  it("eslint: a structured fix is a safe fix, suggestions alone a suggestion; severity 2 = error", () => {
    const response = JSON.parse(runCli(["check", "--format", "response", "--root", fixture("eslint-flat")], { cwd: fixture("eslint-flat") }).stdout) as {
      remainingIssues: { rule: string; fixable?: boolean; fixKind?: string; severity: string }[];
      clusters: { ruleIds: string[]; priority: number }[];
    };
    const eqeqeq = response.remainingIssues.find((issue) => issue.rule === "eqeqeq");
    assert.deepEqual([eqeqeq?.fixable, eqeqeq?.fixKind, eqeqeq?.severity], [true, "suggestion", "warning"], "eqeqeq only offers a suggestion");
    const preferConst = response.remainingIssues.find((issue) => issue.rule === "prefer-const");
    assert.deepEqual([preferConst?.fixable, preferConst?.fixKind, preferConst?.severity], [true, "safe", "warning"]);
    assert.equal(response.clusters.find((cluster) => cluster.ruleIds.includes("no-var"))?.priority, 3, "fixable errors rank 3");
  });
});

describe("the TypeScript fix launcher's answer is validated as it arrives", () => {
  const place = { code: 2304, line: 3, col: 5, path: "/p/src/a.ts" };
  const answer = {
    texts: { "/p/src/a.ts": 'import { b } from "./b";\nb();\n' },
    bases: {},
    fixed: [{ ...place, kind: "safe", touched: ["/p/src/a.ts"] }],
    notFixed: [{ ...place, line: 9, reason: "TypeScript offers no fix for it", offered: false }],
  };

  it("a whole answer reads back as it was sent", () => {
    assert.deepEqual(parseTscFixAnswer(JSON.stringify(answer)), answer);
  });

  it("an answer of another shape, or no JSON at all, is none (the launcher failed)", () => {
    const { offered: _offered, ...withoutOffered } = answer.notFixed[0] as (typeof answer.notFixed)[number];
    for (const bad of [
      { ...answer, notFixed: [withoutOffered] },
      { ...answer, fixed: [{ ...answer.fixed[0], kind: "unsafe" }] },
      { ...answer, texts: { "/p/src/a.ts": 1 } },
      { fixed: [], notFixed: [] },
    ])
      assert.equal(parseTscFixAnswer(JSON.stringify(bad)), null, JSON.stringify(bad));
    assert.equal(parseTscFixAnswer("Error: Cannot find module 'typescript'"), null);
  });
});
