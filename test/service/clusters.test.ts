// Root-cause clusters on generated projects with the real TypeScript: errors group by the declaration they are about
// (read from the warm program), not by rule code; "fix it once" only where the issues share a declaration.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { clusterIssues } from "../../src/core/cluster.ts";
import { normalizeIssues, type RawIssue } from "../../src/core/issues.ts";
import { normalizeMessage } from "../../src/core/normalize.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { SignalintService } from "../../src/service/signalint.ts";
import { BUNDLE, linkPackage, REPO, removeDir, scratchCopy } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";

const runtime = createNodeRuntime({ selfScript: BUNDLE });
const created: string[] = [];
after(() => created.forEach(removeDir));

/** A TypeScript-only project (oxlint off) with these files, linked to this repository's TypeScript. */
function project(files: Record<string, string>): string {
  const root = projectFrom(
    {
      "tsconfig.json": JSON.stringify({
        compilerOptions: { strict: true, noEmit: true, target: "es2022", module: "esnext", moduleResolution: "bundler" },
        include: ["src"],
      }),
      "signalint.config.json": JSON.stringify({ engines: { oxlint: false } }),
      ...files,
    },
    "signalint-clusters-",
  );
  created.push(root);
  linkPackage(root, "typescript", join(REPO, "node_modules", "typescript"));
  return root;
}

const HUB = `export interface AppConfig {
  name: string;
  retries: number;
  timeoutMs: number;
}

export function add(a: number, b: number): number {
  return a + b;
}
`;

function importer(index: number): string {
  return `import { add, type AppConfig } from "../config";

export function setup${index}(): number {
  const config: AppConfig = { name: "app${index}", retries: 3, timeoutMs: 100 };
  config.retries = 4;
  return add(config.retries, ${index});
}
`;
}

function hubProject(count = 6): string {
  const files: Record<string, string> = { "src/config.ts": HUB };
  for (let i = 0; i < count; i++) files[`src/features/feature${i}.ts`] = importer(i);
  return project(files);
}

/**
 * Check until the warm program answers (the first check runs tsc's command line and warms up afterwards; a loaded
 * machine can make a cold run too slow to warm up after), apply an edit, check again: the warm program answers.
 */
async function afterEdit(root: string, edit: () => void): Promise<CheckResponse> {
  const service = await SignalintService.create(runtime, { root });
  const warm = () => service.lastTiming?.cache?.tsc?.mode?.startsWith("warm-") === true;
  try {
    for (let attempt = 0; attempt < 4 && !warm(); attempt++) {
      await service.check(["."], false);
      // The warm-up timer does not hold the process open (a server's stdin does): hold it while waiting.
      const hold = setInterval(() => {}, 1000);
      await service.warmSettled().finally(() => clearInterval(hold));
    }
    edit();
    const response = await service.check(["."], false);
    assert.ok(warm(), `the warm program answered (${JSON.stringify(service.lastTiming?.cache)})`);
    return response;
  } finally {
    service.close();
  }
}

describe("root-cause clusters (TypeScript 5.9 warm program)", () => {
  it("a hub edit (an exported interface's property type changed) gives one cluster naming the edited declaration", async () => {
    const root = hubProject();
    const response = await afterEdit(root, () => writeFileSync(join(root, "src/config.ts"), HUB.replace("retries: number", "retries: string")));
    assert.equal(response.totalIssues, 18, JSON.stringify(response.clusters));
    assert.equal(response.clusters.length, 1, JSON.stringify(response.clusters, null, 1));
    const [cluster] = response.clusters;
    assert.equal(cluster?.issueCount, 18);
    assert.deepEqual(cluster?.ruleIds, ["TS2322", "TS2345"]);
    assert.equal(cluster?.rootCauseSummary, "18 errors: `AppConfig.retries` (src/config.ts:3) is `string`; 18 sites in 6 files treat it as `number`");
    assert.match(cluster?.suggestedAction ?? "", /src\/config\.ts:3/);
    assert.equal((response.remainingIssues ?? []).length, 0);
  });

  it("a renamed export gives one cluster naming the module and the missing export", async () => {
    const root = hubProject(4);
    const response = await afterEdit(root, () => writeFileSync(join(root, "src/config.ts"), HUB.replace("function add(", "function sum(")));
    assert.equal(response.clusters.length, 1, JSON.stringify(response.clusters, null, 1));
    assert.match(response.clusters[0]?.rootCauseSummary ?? "", /src\/config\.ts has no export `add`/);
    assert.match(response.clusters[0]?.suggestedAction ?? "", /Export `add` from src\/config\.ts/);
  });

  it("a changed parameter type names the function's parameter", async () => {
    const root = hubProject(4);
    const response = await afterEdit(root, () => writeFileSync(join(root, "src/config.ts"), HUB.replace("add(a: number", "add(a: string")));
    assert.equal(response.clusters.length, 1, JSON.stringify(response.clusters, null, 1));
    assert.match(response.clusters[0]?.rootCauseSummary ?? "", /`add\(a\)` \(src\/config\.ts:7\) is `string`; 4 sites in 4 files pass `number`/);
  });

  it("three independent causes under one TypeScript code give three clusters naming three declarations", async () => {
    const files: Record<string, string> = {};
    for (const name of ["alpha", "beta", "gamma"]) files[`src/${name}.ts`] = `export function ${name}(count: number): number {\n  return count;\n}\n`;
    for (let i = 0; i < 2; i++) {
      files[`src/use${i}.ts`] =
        `import { alpha } from "./alpha";\nimport { beta } from "./beta";\nimport { gamma } from "./gamma";\n\nexport const values${i} = [alpha("a"), beta("b"), gamma("c")];\n`;
    }
    const root = project(files);
    const response = await afterEdit(root, () => {});
    assert.equal(response.totalIssues, 6);
    const summaries = response.clusters.map((cluster) => cluster.rootCauseSummary).sort();
    assert.equal(summaries.length, 3, summaries.join("\n"));
    for (const [index, name] of ["alpha", "beta", "gamma"].entries()) {
      assert.match(summaries[index] ?? "", new RegExp(`\`${name}\\(count\\)\` \\(src/${name}\\.ts:1\\)`));
    }
    assert.ok(response.clusters.every((cluster) => cluster.ruleIds.join() === "TS2345" && cluster.issueCount === 2));
  });
});

describe("root causes on the fixtures (warm program)", () => {
  it("systemic-ts: the ten assignments name the property they assign to; mixed-app: no cause from an expression's related information", async () => {
    const systemic = scratchCopy("systemic-ts", "clusters-systemic");
    const mixed = scratchCopy("mixed-app", "clusters-mixed");
    created.push(systemic, mixed);
    const [top] = (await afterEdit(systemic, () => {})).clusters;
    assert.equal(top?.rootCauseSummary, "10 errors: `RetryPolicy.backoffMs` (src/config.ts:3) is `number`; 10 sites in 10 files assign `string`");
    assert.match(top?.suggestedAction ?? "", /change it at src\/config\.ts:3 once; else fix the 10 sites/);
    const response = await afterEdit(mixed, () => {});
    // formatPrice's own `value === NaN` (TS2845, whose related information points inside formatPrice) is not caused by formatPrice.
    assert.ok(!response.clusters.some((cluster) => cluster.ruleIds.includes("TS2845")), JSON.stringify(response.clusters));
  });
});

describe("rule clusters", () => {
  const hash = (text: string) => runtime.sha256(text);
  const raw = (file: string, line: number, message: string, rule = "eslint(no-invalid-fetch-options)"): RawIssue => ({
    file,
    line,
    col: 1,
    engine: "oxlint",
    rule,
    severity: "error",
    message,
    fixable: false,
  });

  it("identical linter texts never claim one shared cause", () => {
    const issues = normalizeIssues(
      Array.from({ length: 11 }, (_, index) => raw(`src/api${index}.ts`, 3, "'body' is not allowed when method is 'GET'")),
      hash,
    );
    const [group] = clusterIssues(issues, hash);
    assert.equal(group?.cluster.issueCount, 11);
    assert.doesNotMatch(group?.cluster.suggestedAction ?? "", /shared cause|fix it once/);
    assert.match(group?.cluster.suggestedAction ?? "", /Fix each of the 11 places/);
  });

  it("without a program (tsc's command line), imports of one missing export of one module form one cluster naming them", () => {
    const missing = (file: string, specifier: string) => raw(file, 1, `Module '"${specifier}"' has no exported member 'add'.`, "TS2305");
    const issues = normalizeIssues(
      [missing("src/a/one.ts", "../config"), missing("src/two.ts", "./config"), missing("src/b/c/three.ts", "../../config")].map((issue) => ({
        ...issue,
        engine: "tsc" as const,
      })),
      hash,
    );
    const groups = clusterIssues(issues, hash);
    assert.equal(groups.length, 1);
    assert.equal(groups[0]?.cluster.rootCauseSummary, "3 errors: src/config has no export `add`; 3 imports in 3 files name it");
    const other = normalizeIssues(
      [missing("src/a.ts", "./x"), missing("src/b.ts", "./y")].map((issue) => ({ ...issue, engine: "tsc" as const })),
      hash,
    );
    assert.match(clusterIssues(other, hash)[0]?.cluster.rootCauseSummary ?? "", /^2 issues in 2 files/, "two modules are two causes: a rule cluster");
  });

  it("TypeScript issues grouped by rule say when no program was asked (tsc's command line), not when one named no cause", () => {
    const mismatch = (file: string) => ({ ...raw(file, 2, "Type 'string' is not assignable to type 'number'.", "TS2322"), engine: "tsc" as const });
    const cold = clusterIssues(normalizeIssues([mismatch("src/a.ts"), mismatch("src/b.ts")], hash), hash);
    assert.match(cold[0]?.cluster.suggestedAction ?? "", /Grouped by rule: tsc's command line names no declarations, so a shared cause is not known\.$/);
    const warm = clusterIssues(
      normalizeIssues(
        [mismatch("src/a.ts"), mismatch("src/b.ts")].map((issue) => ({ ...issue, causes: [] })),
        hash,
      ),
      hash,
    );
    assert.equal(warm[0]?.cluster.suggestedAction, "Fix each of the 2 places; first at src/a.ts:2.");
  });

  it("one edit's new errors reaching several declarations of one file form one cluster; a cause with older errors stays apart", () => {
    const id = { file: "src/user.ts", name: "User", line: 1, member: { name: "User.id", line: 2 }, role: "source" as const };
    const param = { file: "src/user.ts", name: "makeUser", line: 6, member: { name: "makeUser(id)", line: 6 } };
    const site = (file: string, rule: string, cause: typeof id | typeof param) => ({
      ...raw(
        file,
        3,
        rule === "TS2345" ? "Argument of type 'number' is not assignable to parameter of type 'string'." : "Type 'string' is not assignable to type 'number'.",
        rule,
      ),
      engine: "tsc" as const,
      causes: [cause],
    });
    const edit = [site("src/a.ts", "TS2322", id), site("src/b.ts", "TS2322", id), site("src/c.ts", "TS2345", param), site("src/d.ts", "TS2345", param)];
    const groups = clusterIssues(normalizeIssues(edit, hash), hash, { scope: ["."], issues: [] });
    assert.equal(groups.length, 1);
    assert.equal(
      groups[0]?.cluster.rootCauseSummary,
      "4 errors (TS2322/TS2345) at 4 sites in 4 files since the last check trace to src/user.ts: `User.id` (src/user.ts:2) for 2, `makeUser(id)` (src/user.ts:6) for 2",
    );
    const older = normalizeIssues([site("src/a.ts", "TS2322", id)], hash);
    const apart = clusterIssues(normalizeIssues(edit, hash), hash, { scope: ["."], issues: older });
    assert.deepEqual(
      apart.map((group) => group.cluster.issueCount),
      [2, 2],
    );
    assert.deepEqual(
      clusterIssues(normalizeIssues(edit, hash), hash).map((group) => group.cluster.issueCount),
      [2, 2],
      "no previous check: two causes",
    );
  });

  it("issues new since the previous check are not merged with ones it already had", () => {
    const old = normalizeIssues([raw("src/old.ts", 1, "Type 'A' is not assignable to type 'B'.", "TS2322")], hash);
    const fresh = [
      raw("src/a.ts", 2, "Type 'string' is not assignable to type 'number'.", "TS2322"),
      raw("src/b.ts", 2, "Type 'string' is not assignable to type 'number'.", "TS2322"),
    ];
    const issues = normalizeIssues([...fresh, raw("src/old.ts", 1, "Type 'A' is not assignable to type 'B'.", "TS2322")], hash);
    const groups = clusterIssues(issues, hash, { scope: ["."], issues: old });
    assert.equal(groups.length, 1);
    assert.deepEqual(groups[0]?.issues.map((issue) => issue.file).sort(), ["src/a.ts", "src/b.ts"]);
    assert.match(groups[0]?.cluster.suggestedAction ?? "", /first at src\/a\.ts:2/);
  });
});

describe("messages cut at 120 characters keep the part that explains them", () => {
  it("a TypeScript message chain keeps its first line and its deepest reason; long types are shortened first", () => {
    const chain =
      "Type '{ retries: string; name: string; }' is not assignable to type 'AppConfig'.\n  Types of property 'retries' are incompatible.\n    Type 'string' is not assignable to type 'number'.";
    const cut = normalizeMessage(chain);
    assert.ok(cut.length <= 120, cut);
    assert.match(cut, /^Type '\{ retries: .*…' is not assignable to type 'AppConfig'\. … Type 'string' is not assignable to type 'number'\.$/);
    const literal = normalizeMessage(
      "Object literal may only specify known properties, and 'retries' does not exist in type '{ name: string; timeoutMs: number; other: boolean; }'.",
    );
    assert.ok(literal.length <= 120 && literal.includes("'retries' does not exist in type '{ name: string;") && literal.endsWith("…'."), literal);
  });
});
