import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse, NormalizedIssue } from "../../src/core/contracts.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { SignalintService } from "../../src/service/signalint.ts";
import { BUNDLE, call, connect, enginesOf, fullIssue, linkBin, removeDir, REPO, runCli, scratchCopy, structured, tempDir } from "../helpers.ts";
import { rawTsc } from "../raw-engines.ts";

const TSC7 = join(REPO, "node_modules", "typescript7", "bin", "tsc");

async function fullList(project: string): Promise<{ response: CheckResponse; issues: NormalizedIssue[] }> {
  const session = await connect(project);
  try {
    const response = structured<CheckResponse>(await call(session.client, "check_project"));
    const issues = (response.remainingIssues ?? []).map(fullIssue);
    for (const cluster of response.clusters) {
      issues.push(...structured<{ issues: NormalizedIssue[] }>(await call(session.client, "get_issue_detail", { clusterId: cluster.clusterId })).issues);
    }
    return { response: { ...response, engines: await enginesOf(session, response.checkId) }, issues };
  } finally {
    await session.close();
  }
}

describe("TypeScript 7 (native) as the project's tsc", () => {
  const projects: string[] = [];
  after(() => projects.forEach(removeDir));

  for (const [name, build] of [
    ["systemic-ts", false],
    ["references", true],
  ] as const) {
    it(`${name}: same diagnostics as TypeScript 7 run directly`, async () => {
      const project = scratchCopy(name, `ts7-${name}`);
      projects.push(project);
      linkBin(project, "tsc", TSC7);
      const { response, issues } = await fullList(project);
      assert.equal(response.engines.tsc.status, "ok", JSON.stringify(response.engines.tsc));
      assert.match(response.engines.tsc.version ?? "", /^7\./);
      const expected = rawTsc(project, { build, tscBin: join(project, "node_modules", ".bin", "tsc") })
        .map((d) => `${d.file}:${d.line}:${d.rule}`)
        .sort();
      const actual = issues
        .filter((issue) => issue.engine === "tsc")
        .map((issue) => `${issue.file}:${issue.line}:${issue.rule}`)
        .sort();
      assert.ok(expected.length > 0);
      assert.deepEqual(actual, expected);
    });
  }
});

describe("TypeScript 7 warm server", () => {
  it("after warming, check_files answers from the warm tsgo server and matches a cold run after edits", async () => {
    const project = scratchCopy("systemic-ts", "ts7-warm");
    linkBin(project, "tsc", TSC7);
    const session = await connect(project);
    try {
      // The first check builds the warm tsgo server (in its host) and answers from it.
      await call(session.client, "check_project");
      const mode = structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/users.ts"] })).cache?.tsc?.mode ?? "";
      assert.match(mode, /^warm-/);
      const cold = () =>
        rawTsc(project, { tscBin: join(project, "node_modules", ".bin", "tsc") })
          .map((d) => `${d.file}:${d.line}:${d.rule}`)
          .sort();
      const server = async () => {
        const { issues } = await fullListFrom(session);
        return issues
          .filter((issue) => issue.engine === "tsc")
          .map((issue) => `${issue.file}:${issue.line}:${issue.rule}`)
          .sort();
      };
      writeFileSync(
        join(project, "src", "config.ts"),
        "export interface RetryPolicy {\n  attempts: number;\n  backoffMs: string;\n}\n\nexport function describe(policy: RetryPolicy): string {\n  return `${policy.attempts}x every ${policy.backoffMs}ms`;\n}\n",
      );
      const edited = structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/users.ts"] }));
      assert.equal(edited.cache?.tsc?.mode, "warm-incremental");
      assert.equal(edited.totalIssues, 0, "the dependency change fixed users.ts");
      assert.deepEqual(await server(), cold());

      // The warm tsgo server dies (a child of the server's warm host): the next check still answers correctly, and
      // the server is warmed up again.
      const children = (pid: number) => spawnSync("ps", ["-o", "pid=,args=", "--ppid", String(pid)], { encoding: "utf8" }).stdout.split("\n");
      const host = children(session.pid as number).find((line) => line.includes("__signalint-warm-host"));
      assert.ok(host, `a warm host child of the server: ${children(session.pid as number).join(" | ")}`);
      const below = children(Number(host.trim().split(/\s+/)[0]));
      const tsgo = below.filter((line) => /typescript|tsgo/.test(line)).map((line) => Number(line.trim().split(/\s+/)[0]));
      assert.ok(tsgo.length > 0, `a tsgo child of the warm host: ${below.join(" | ")}`);
      for (const pid of tsgo) process.kill(pid, "SIGKILL");
      writeFileSync(
        join(project, "src", "orders.ts"),
        'import { describe } from "./config";\nexport const broken: number = describe({ attempts: 1, backoffMs: "1" });\n',
      );
      const afterDeath = structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/orders.ts"] }));
      assert.deepEqual(
        (afterDeath.remainingIssues ?? []).map((issue) => issue.rule),
        ["TS2322"],
      );
      assert.deepEqual(await server(), cold());
      const again = structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/orders.ts"] })).cache?.tsc?.mode ?? "";
      assert.match(again, /^warm-/, "warmed up again");
    } finally {
      await session.close();
      removeDir(project);
    }
  });
});

async function fullListFrom(session: Awaited<ReturnType<typeof connect>>): Promise<{ issues: NormalizedIssue[] }> {
  const response = structured<CheckResponse>(await call(session.client, "check_project"));
  const issues = (response.remainingIssues ?? []).map(fullIssue);
  for (const cluster of response.clusters) {
    issues.push(...structured<{ issues: NormalizedIssue[] }>(await call(session.client, "get_issue_detail", { clusterId: cluster.clusterId })).issues);
  }
  return { issues };
}

describe("TypeScript 7 across restarts (issue 17)", () => {
  it("a new process answers an unchanged project from the stored answer, and never after an edit or damage", async () => {
    const project = scratchCopy("systemic-ts", "ts7-restart");
    linkBin(project, "tsc", TSC7);
    const cacheDir = tempDir("signalint-ts7-cache-");
    const dirs = [project, cacheDir];
    try {
      let runs = 0;
      const check = () => {
        const state = tempDir("signalint-ts7-state-");
        dirs.push(state);
        const result = runCli(["check", "--format", "json", "--cache-dir", cacheDir], { cwd: project, env: { CI: "true", SIGNALINT_STATE_DIR: state } });
        const stats = JSON.parse(runCli(["stats", "--json"], { cwd: project, env: { SIGNALINT_STATE_DIR: state } }).stdout) as {
          cache: Record<string, { misses: number; modes: Record<string, number> }>;
        };
        runs++;
        const keys = (JSON.parse(result.stdout) as { issues: { engine: string; file: string; line: number; rule: string }[] }).issues
          .filter((issue) => issue.engine === "tsc")
          .map((issue) => `${issue.file}:${issue.line}:${issue.rule}`)
          .sort();
        return { result, keys, tsc: stats.cache.tsc };
      };
      const cold = () =>
        rawTsc(project, { tscBin: join(project, "node_modules", ".bin", "tsc") })
          .map((d) => `${d.file}:${d.line}:${d.rule}`)
          .sort();
      const first = check();
      assert.deepEqual(first.tsc?.modes, { "warm-full": 1 });
      assert.deepEqual(first.keys, cold());
      assert.ok(first.keys.length > 0);
      // Unchanged: the stored answer, tsgo never started (nothing re-checked), exactly the first run's report.
      const second = check();
      assert.deepEqual(second.tsc?.modes, { "warm-restored": 1 });
      assert.equal(second.tsc?.misses, 0);
      assert.equal(second.result.stdout, first.result.stdout);
      // A one-shot check reads that answer in its own process: no host is started for it.
      const state = tempDir("signalint-ts7-state-");
      dirs.push(state);
      process.env.SIGNALINT_STATE_DIR = state;
      const service = await SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root: project, cacheDir, oneShot: true }).finally(
        () => delete process.env.SIGNALINT_STATE_DIR,
      );
      try {
        const response = await service.check(["."], false);
        assert.deepEqual([service.lastTiming?.cache?.tsc?.mode, response.engines.tsc.status], ["warm-restored", "ok"]);
        assert.equal(service.warmChecksAsked(), 0, "no warm host asked");
        assert.equal(response.totalIssues, (JSON.parse(first.result.stdout) as { issues: unknown[] }).issues.length);
      } finally {
        await service.close();
      }
      // An edit while nothing ran (same size, so only the content tells): built afresh, and as a cold run says.
      const users = join(project, "src", "users.ts");
      const text = readFileSync(users, "utf8");
      writeFileSync(users, text.replace(/: string/, ": number"));
      assert.equal(readFileSync(users, "utf8").length, text.length);
      const edited = check();
      assert.deepEqual(edited.tsc?.modes, { "warm-full": 1 });
      assert.deepEqual(edited.keys, cold());
      assert.notDeepEqual(edited.keys, first.keys);
      // A new file where the config's include walks: the listing changed, so nothing stored is trusted.
      writeFileSync(join(project, "src", "added.ts"), "export const added: string = 1;\n");
      const added = check();
      assert.deepEqual(added.tsc?.modes, { "warm-full": 1 });
      assert.deepEqual(added.keys, cold());
      assert.ok(added.keys.some((key) => key.startsWith("src/added.ts:")));
      // Damaged state (one byte changed): said on stderr, ignored, the answer built afresh.
      const stateDir = join(cacheDir, "tsc-state");
      const file = join(stateDir, readdirSync(stateDir).find((name) => name.endsWith(".state")) as string);
      const raw = readFileSync(file, "utf8");
      writeFileSync(file, `${raw.slice(0, -3)}x${raw.slice(-2)}`);
      const damaged = check();
      assert.deepEqual(damaged.tsc?.modes, { "warm-full": 1 });
      assert.match(damaged.result.stderr, /persisted TypeScript state .* ignored \(checksum mismatch\)/);
      assert.deepEqual(damaged.keys, cold());
      assert.ok(!existsSync(join(project, ".signalint", "cache")) && runs === 5);
    } finally {
      for (const dir of dirs) removeDir(dir);
    }
  });
});
