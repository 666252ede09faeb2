import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { CheckResponse, NormalizedIssue } from "../../src/core/contracts.ts";
import { call, connect, everyIssue, fixture, linkBin, removeDir, REPO, runCli, scratchCopy, structured, tempDir, type Connected } from "../helpers.ts";
import { writeProjectFile } from "../helpers/project.ts";
import { rawTsc } from "../raw-engines.ts";

const key = (file: string, line: number, rule: string) => `${file}:${line}:${rule}`;

describe("freshness: cached and warm results always equal a cold run", () => {
  let project: string;
  let stateDir: string;
  let session: Connected;
  let countFile: string;
  let env: Record<string, string>;
  let cacheBase: string;
  /** The project's lint cache: in its cache directory under SIGNALINT_CACHE_DIR, outside the project tree. */
  const lintCache = () => join(cacheBase, readdirSync(cacheBase)[0] as string, "lint");
  const write = (path: string, text: string) => writeProjectFile(project, path, text);
  const checkFiles = async (...files: string[]) => structured<CheckResponse>(await call(session.client, "check_files", { files }));
  const checkProject = async () => structured<CheckResponse>(await call(session.client, "check_project"));
  const oxlintRuns = () => readFileSync(countFile, "utf8").trim().split("\n").filter(Boolean).length;
  /** The warm program is built in the background after the first answer; wait until checks use it. */
  /** The server's tsc issues equal a cold `tsc --noEmit` of the same tree. */
  const assertTscMatchesCold = async (response: CheckResponse) => {
    const server = (await everyIssue(session, response))
      .flatMap((issue) => [issue, ...(issue.alsoReportedBy ?? []).map((other) => ({ ...issue, ...other }))])
      .filter((issue) => issue.engine === "tsc")
      .map((i) => key(i.file, i.line, i.rule))
      .sort();
    const cold = rawTsc(project)
      .map((d) => key(d.file, d.line, d.rule))
      .sort();
    assert.deepEqual(server, cold);
  };

  before(async () => {
    project = scratchCopy("clean", "fresh");
    stateDir = tempDir("signalint-fresh-state-");
    cacheBase = tempDir("signalint-fresh-cache-");
    write("src/lib/shapes.ts", "export interface Shape {\n  area: number;\n}\n");
    write("src/app.ts", 'import type { Shape } from "./lib/shapes";\nexport const square: Shape = { area: 4 };\n');
    write("src/leaf.ts", "export const leaf = 1;\n");
    write("node_modules/fake-lib/package.json", '{ "name": "fake-lib", "version": "1.0.0", "types": "index.d.ts" }');
    write("node_modules/fake-lib/index.d.ts", "export declare function size(): number;\n");
    write("src/uses-lib.ts", 'import { size } from "fake-lib";\nexport const n: number = size();\n');
    countFile = join(stateDir, "oxlint-runs.txt");
    writeFileSync(countFile, "");
    linkBin(project, "oxlint", fixture("fault-engines/counting-oxlint.cjs"));
    env = {
      SIGNALINT_STATE_DIR: stateDir,
      SIGNALINT_CACHE_DIR: cacheBase,
      SIGNALINT_COUNT_FILE: countFile,
      REAL_OXLINT: join(REPO, "node_modules/oxlint/bin/oxlint"),
    };
    session = await connect(project, env);
  });
  after(async () => {
    await session.close();
    removeDir(project);
    removeDir(stateDir);
    removeDir(cacheBase);
  });

  it("starts clean and reuses everything when nothing changed", async () => {
    assert.equal((await checkProject()).totalIssues, 0);
    // The first check built the warm program and answered from it: the next one reuses it.
    const again = await checkFiles("src/leaf.ts");
    assert.equal(again.cache?.tsc?.mode, "warm-reused");
    assert.equal(again.cache?.tsc?.misses, 0);
    const third = await checkFiles("src/leaf.ts");
    // From the lint cache, or (once the file watch vouches that nothing changed) a repeat of the second check's results.
    const { hits, misses } = third.cache?.oxlint ?? {};
    assert.deepEqual({ hits, misses }, { hits: 1, misses: 0 });
  });

  it("sees a change in a dependency of the requested file (the original's stale-result hole)", async () => {
    write("src/lib/shapes.ts", "export interface Shape {\n  area: string;\n}\n");
    const response = await checkFiles("src/app.ts");
    assert.equal(response.totalIssues, 1);
    assert.equal((response.remainingIssues ?? [])[0]?.rule, "TS2322");
    assert.equal(response.cache?.tsc?.mode, "warm-incremental");
    await assertTscMatchesCold(await checkProject());
  });

  it("sees a change to a .d.ts inside node_modules that nothing requested", async () => {
    write("node_modules/fake-lib/index.d.ts", "export declare function size(): string;\n");
    const response = await checkFiles("src/uses-lib.ts");
    assert.deepEqual(
      (response.remainingIssues ?? []).map((issue) => issue.rule),
      ["TS2322"],
    );
    await assertTscMatchesCold(await checkProject());
  });

  it("sees a new file that makes a failing import resolve, and a deleted file that breaks one", async () => {
    write("src/late.ts", 'import { later } from "./later";\nexport const x: number = later;\n');
    assert.ok(((await checkFiles("src/late.ts")).remainingIssues ?? []).some((issue) => issue.rule === "TS2307"));
    write("src/later.ts", "export const later = 5;\n");
    assert.equal((await checkFiles("src/late.ts")).totalIssues, 0);
    rmSync(join(project, "src/later.ts"));
    assert.ok(((await checkFiles("src/late.ts")).remainingIssues ?? []).some((issue) => issue.rule === "TS2307"));
    rmSync(join(project, "src/late.ts"));
    await assertTscMatchesCold(await checkProject());
  });

  it("sees tsconfig changes, including in an extended config", async () => {
    write("tsconfig.base.json", '{ "compilerOptions": { "noUnusedLocals": false } }');
    const config = JSON.parse(readFileSync(join(project, "tsconfig.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({ ...config, extends: "./tsconfig.base.json", compilerOptions: { ...(config.compilerOptions as object), noUnusedLocals: undefined } }),
    );
    write("src/unused.ts", "function helper() {\n  const spare = 1;\n  return 2;\n}\nexport { helper };\n");
    assert.equal(((await checkFiles("src/unused.ts")).remainingIssues ?? []).filter((issue) => issue.engine === "tsc" && issue.rule === "TS6133").length, 0);
    write("tsconfig.base.json", '{ "compilerOptions": { "noUnusedLocals": true } }');
    const response = await checkFiles("src/unused.ts");
    assert.ok(
      (response.remainingIssues ?? []).some((issue) => issue.rule === "TS6133" || issue.alsoReportedBy?.some((other) => other.rule === "TS6133")),
      JSON.stringify(response.remainingIssues),
    );
    await assertTscMatchesCold(await checkProject());
  });

  it("re-lints a cached file when a linter config or a nested config changes", async () => {
    write("src/debug.ts", "export function stop(): void {\n  debugger;\n}\n");
    assert.ok(((await checkFiles("src/debug.ts")).remainingIssues ?? []).some((issue) => issue.rule === "eslint(no-debugger)"));
    assert.equal((await checkFiles("src/debug.ts")).cache?.oxlint?.hits, 1);
    write(".oxlintrc.json", '{ "rules": { "no-debugger": "off" } }');
    const quiet = await checkFiles("src/debug.ts");
    assert.equal(quiet.cache?.oxlint?.misses, 1, "the config change invalidated the cached result");
    assert.ok(!(quiet.remainingIssues ?? []).some((issue) => issue.rule === "eslint(no-debugger)"));
    write("src/.oxlintrc.json", '{ "rules": { "no-debugger": "error" } }');
    const nested = await checkFiles("src/debug.ts");
    assert.equal(nested.cache?.oxlint?.misses, 1, "a new nested config invalidates too");
    assert.ok((nested.remainingIssues ?? []).some((issue) => issue.rule === "eslint(no-debugger)" && issue.severity === "error"));
    rmSync(join(project, "src/.oxlintrc.json"));
    rmSync(join(project, ".oxlintrc.json"));
  });

  it("re-emits cached issues with the same ids, and project-wide results are cached as a whole", async () => {
    const first = await checkFiles("src/debug.ts");
    const second = await checkFiles("src/debug.ts");
    assert.equal(second.cache?.oxlint?.hits, 1);
    assert.deepEqual(second.remainingIssues, first.remainingIssues);
    const whole = await checkProject();
    const runs = oxlintRuns();
    const wholeAgain = await checkProject();
    assert.equal(oxlintRuns(), runs, "nothing changed: oxlint did not run again");
    assert.deepEqual(wholeAgain.remainingIssues, whole.remainingIssues);
    assert.equal((await checkFiles("src/app.ts")).cache?.oxlint?.hits, 1, "files of a project-wide run are known afterwards");
    assert.equal(oxlintRuns(), runs);
    write("src/debug2.ts", "debugger;\nexport {};\n");
    const changed = await checkProject();
    assert.equal(oxlintRuns(), runs + 1, "a new file under the checked directory invalidates the project-wide entry");
    assert.ok((await everyIssue(session, changed)).some((issue) => issue.file === "src/debug2.ts"));
    rmSync(join(project, "src/debug2.ts"));
  });

  it("discards a corrupt cache entry with a warning and recomputes", async () => {
    const cacheDir = lintCache();
    for (const shard of readdirSync(cacheDir))
      for (const file of readdirSync(join(cacheDir, shard))) writeFileSync(join(cacheDir, shard, file), '{"v":1,"key":"tr');
    await session.close();
    session = await connect(project, env);
    const response = await checkFiles("src/debug.ts");
    assert.ok((response.remainingIssues ?? []).some((issue) => issue.rule === "eslint(no-debugger)"));
    assert.match(session.stderr(), /discarding corrupt cache entry/);
  });

  it("two servers sharing a project and state directory stay correct", async () => {
    rmSync(lintCache(), { recursive: true, force: true });
    const other = await connect(project, env);
    try {
      const rounds = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 ? other : session)).map(async (peer) =>
          structured<CheckResponse>(await call(peer.client, "check_files", { files: ["src/debug.ts", "src/app.ts"] })),
        ),
      );
      assert.ok(
        (rounds[0]?.remainingIssues ?? []).some((issue) => issue.rule === "eslint(no-debugger)"),
        "the rounds compare a finding",
      );
      for (const response of rounds)
        assert.deepEqual(
          (response.remainingIssues ?? []).map((issue) => issue.rule).sort(),
          (rounds[0]?.remainingIssues ?? []).map((issue) => issue.rule).sort(),
        );
      const cacheDir = lintCache();
      const entries = readdirSync(cacheDir).flatMap((shard) => readdirSync(join(cacheDir, shard)).map((file) => join(cacheDir, shard, file)));
      assert.ok(entries.length > 0, "the two servers wrote cache entries");
      for (const entry of entries) assert.doesNotThrow(() => JSON.parse(readFileSync(entry, "utf8")), entry);
    } finally {
      await other.close();
    }
  });

  it("stats aggregates each check's cache use from the session log", () => {
    const result = runCli(["stats", "--json"], { cwd: project, env: { SIGNALINT_STATE_DIR: stateDir, SIGNALINT_CACHE_DIR: cacheBase } });
    assert.equal(result.status, 0, result.stderr);
    const report = JSON.parse(result.stdout) as {
      checks: { total: number; files: number };
      cache: Record<string, { hits: number; misses: number; modes: Record<string, number> }>;
      resultCache: { entries: number };
    };
    assert.ok(report.checks.files >= 10);
    assert.ok((report.cache.oxlint?.hits ?? 0) > 0 && (report.cache.oxlint?.misses ?? 0) > 0);
    assert.ok((report.cache.tsc?.modes["warm-reused"] ?? 0) > 0);
    assert.ok(report.resultCache.entries > 0);
  });
});

describe("monorepo without a root tsconfig", () => {
  it("checks every package's tsconfig below the checked directory", async () => {
    const project = scratchCopy("clean", "monorepo");
    try {
      rmSync(join(project, "tsconfig.json"));
      rmSync(join(project, "src"), { recursive: true });
      const config = '{ "compilerOptions": { "strict": true, "noEmit": true, "skipLibCheck": true }, "include": ["src"] }';
      for (const name of ["alpha", "beta"]) {
        mkdirSync(join(project, "packages", name, "src"), { recursive: true });
        writeFileSync(join(project, "packages", name, "tsconfig.json"), config);
        writeFileSync(join(project, "packages", name, "src", "index.ts"), `export const ${name}: number = "${name}";\n`);
      }
      const session = await connect(project);
      try {
        const response = structured<CheckResponse>(await call(session.client, "check_project"));
        assert.equal(response.engines.tsc.status, "ok");
        const issues = await everyIssue(session, response);
        assert.deepEqual(
          issues
            .filter((issue) => issue.engine === "tsc")
            .map((issue) => issue.file)
            .sort(),
          ["packages/alpha/src/index.ts", "packages/beta/src/index.ts"],
        );
      } finally {
        await session.close();
      }
    } finally {
      removeDir(project);
    }
  });
});
