import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { CheckResponse, NormalizedIssue } from "../../src/core/contracts.ts";
import { call, connect, fixture, fullIssue, structured, type Connected } from "../helpers.ts";
import { TreeGuard } from "../helpers/tree.ts";
import { messageMatches, rawBiome, rawEslint, rawOxlint, rawTsc, type RawDiagnostic } from "../raw-engines.ts";

const FIXTURES: { name: string; engines: string[]; build?: boolean; inferred?: string[]; minIssues: number }[] = [
  { name: "sparse", engines: ["oxlint", "tsc"], minIssues: 1 },
  { name: "systemic-ts", engines: ["oxlint", "tsc"], minIssues: 12 },
  { name: "mixed-app", engines: ["oxlint", "tsc"], minIssues: 10 },
  { name: "scale-app", engines: ["oxlint", "tsc"], minIssues: 50 },
  { name: "clean", engines: ["oxlint", "tsc"], minIssues: 0 },
  { name: "references", engines: ["oxlint", "tsc"], build: true, minIssues: 4 },
  { name: "biome-app", engines: ["oxlint", "tsc", "biome"], minIssues: 4 },
  // No tsconfig: tsc checks its JS files in an inferred program.
  { name: "eslint-flat", engines: ["oxlint", "tsc", "eslint"], inferred: ["eslint.config.js", "src/app.js", "src/util.js"], minIssues: 5 },
];

/** Every issue of a check, fetched through the tools: each cluster's detail plus the remaining issues. */
async function allIssues(session: Connected, response: CheckResponse): Promise<NormalizedIssue[]> {
  assert.equal(response.truncated, false, "fixture results must not be truncated");
  assert.equal(response.omittedIssueCount ?? 0, 0, "fixture results must not omit issues");
  const issues = (response.remainingIssues ?? []).map(fullIssue);
  for (const cluster of response.clusters) {
    const detail = structured<{ issues: NormalizedIssue[] }>(await call(session.client, "get_issue_detail", { clusterId: cluster.clusterId }));
    assert.equal(detail.issues.length, cluster.issueCount, `cluster ${cluster.clusterId} count`);
    issues.push(...detail.issues);
  }
  return issues;
}

function reporters(issue: NormalizedIssue): { engine: string; rule: string }[] {
  return [{ engine: issue.engine, rule: issue.rule }, ...(issue.alsoReportedBy ?? [])];
}

/** Match raw diagnostics to server issues one to one (a merged issue takes one raw report per engine). */
function match(raw: RawDiagnostic[], issues: NormalizedIssue[]): void {
  const taken = new Map<NormalizedIssue, Set<string>>();
  for (const diagnostic of raw) {
    const candidate = issues.find(
      (issue) =>
        issue.file === diagnostic.file &&
        issue.line === diagnostic.line &&
        reporters(issue).some((r) => r.engine === diagnostic.engine && r.rule === diagnostic.rule) &&
        !taken.get(issue)?.has(diagnostic.engine) &&
        (issue.engine !== diagnostic.engine || messageMatches(issue.message, diagnostic.message)),
    );
    assert.ok(candidate, `raw ${diagnostic.engine} ${diagnostic.file}:${diagnostic.line} ${diagnostic.rule} "${diagnostic.message}" has no server issue`);
    taken.set(candidate, (taken.get(candidate) ?? new Set()).add(diagnostic.engine));
  }
  for (const issue of issues) {
    assert.equal(
      taken.get(issue)?.size ?? 0,
      reporters(issue).length,
      `server issue ${issue.file}:${issue.line} ${issue.rule} is not backed by exactly its engines' raw reports`,
    );
  }
}

describe("ground truth: raw engine output equals the server's issue list", () => {
  for (const spec of FIXTURES) {
    describe(spec.name, () => {
      let session: Connected;
      // The fixture in this repository: whatever the check runs, nothing may be written into it.
      const guard = new TreeGuard();
      before(async () => {
        guard.watch(fixture(spec.name));
        session = await connect(fixture(spec.name));
      });
      after(async () => {
        await session.close();
        guard.verifyAndClear();
      });

      it("reports exactly what the engines print (after cross-engine deduplication)", async (t) => {
        const started = performance.now();
        const response = structured<CheckResponse>(await call(session.client, "check_project"));
        t.diagnostic(`check_project ${spec.name}: ${Math.round(performance.now() - started)} ms, ${response.totalIssues} issues`);
        const okEngines = Object.entries(response.engines)
          .filter(([, s]) => s.status === "ok")
          .map(([name]) => name)
          .sort();
        assert.deepEqual(okEngines, [...spec.engines].sort(), JSON.stringify(response.engines));
        const root = fixture(spec.name);
        const raw = [
          ...rawOxlint(root),
          ...(spec.engines.includes("tsc") ? rawTsc(root, { build: spec.build, ...(spec.inferred ? { inferred: spec.inferred } : {}) }) : []),
          ...(spec.engines.includes("biome") ? rawBiome(root) : []),
          ...(spec.engines.includes("eslint") ? rawEslint(root) : []),
        ];
        const issues = await allIssues(session, response);
        assert.equal(issues.length, response.totalIssues);
        assert.equal(new Set(issues.map((issue) => issue.issueId)).size, issues.length, "issue ids are unique");
        assert.ok(response.totalIssues >= spec.minIssues, `${spec.name} has ${response.totalIssues} issues`);
        match(raw, issues);
        t.diagnostic(
          `${spec.name}: raw ${raw.length} (${spec.engines.map((e) => `${e} ${raw.filter((r) => r.engine === e).length}`).join(", ")}) → server ${issues.length}`,
        );
        assert.equal(response.status, issues.length ? "issues_found" : "clean");
      });
    });
  }
});
