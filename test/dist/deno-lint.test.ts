// deno lint as an engine (issue 32: an engine added behind a flag), on the real Deno (build/fetch-deno.mjs) on PATH.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { after, describe, it } from "node:test";
import { parseDenoOutput } from "../../src/engines/deno.ts";
import type { CliReport } from "../../src/cli/report.ts";
import { call, CLEAN_PATH, connect, DENO, REPO, removeDir, runCli, scratchCopy, structured, tempDir } from "../helpers.ts";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { messageMatches, rawDeno } from "../raw-engines.ts";

/** Every file under a directory (node_modules left out: the scratch copy links the engines there) with its size and mtime. */
function tree(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((path) => !path.split("/").includes("node_modules"))
    .map((path) => {
      const info = statSync(join(dir, path));
      return `${path} ${info.isDirectory() ? "dir" : `${info.size} ${info.mtimeMs}`}`;
    })
    .sort();
}

const ON_PATH = { PATH: `${dirname(DENO)}:${CLEAN_PATH}` };

describe("deno lint behind engines.deno", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("on: check reports exactly what deno lint --json reports when run directly, and writes nothing in the project", () => {
    const project = scratchCopy("deno-app", "deno-on");
    const cache = tempDir("signalint-cache-");
    const denoDir = tempDir("deno-dir-");
    dirs.push(project, cache, denoDir);
    writeFileSync(join(project, "signalint.config.json"), JSON.stringify({ engines: { deno: true } }));
    const before = tree(project);
    const result = runCli(["check", "--format", "json"], { cwd: project, env: { ...ON_PATH, SIGNALINT_CACHE_DIR: cache } });
    const report = JSON.parse(result.stdout) as CliReport;
    assert.equal(report.engines.deno.status, "ok", JSON.stringify(report.engines.deno));
    assert.deepEqual(tree(project), before, "nothing written in the project tree");
    // Each deno report: its own issues and the ones merged into another engine's (alsoReportedBy).
    const reports = report.issues.flatMap((issue) =>
      issue.engine === "deno"
        ? [issue]
        : (issue.alsoReportedBy ?? []).filter((other) => other.engine === "deno").map((other) => ({ ...issue, ...other, message: "" })),
    );
    const raw = rawDeno(project, DENO, denoDir);
    assert.equal(raw.length, 2, "the fixture's two findings");
    const key = (issue: { file: string; line: number; col: number; rule: string }) => `${issue.file}:${issue.line}:${issue.col} ${issue.rule}`;
    assert.deepEqual(reports.map(key).sort(), raw.map(key).sort());
    for (const issue of report.issues.filter((entry) => entry.engine === "deno")) {
      const same = raw.find((entry) => key(entry) === key(issue));
      assert.ok(same && messageMatches(issue.message, same.message), `${key(issue)}: ${issue.message}`);
    }
    assert.equal(result.status, 1, "errors: exit 1, as deno lint's own");
    // Its lint cache (DENO_DIR) went to Signalint's cache directory.
    assert.ok(readdirSync(join(cache)).length > 0);
  });

  it("check_files answers from the lint cache, and not once the deno on PATH is replaced in place (deno upgrade)", async () => {
    const project = scratchCopy("deno-app", "deno-cache");
    const bin = tempDir("deno-bin-");
    dirs.push(project, bin);
    copyFileSync(DENO, join(bin, "deno"));
    writeFileSync(join(project, "signalint.config.json"), JSON.stringify({ engines: { deno: true } }));
    const session = await connect(project, { PATH: `${bin}:${CLEAN_PATH}` });
    try {
      const check = async () => structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/main.ts"] }));
      const first = await check();
      assert.deepEqual([first.engines.deno.status, first.totalIssues, first.cache?.deno?.misses], ["ok", 2, 1]);
      const second = await check();
      assert.deepEqual([second.totalIssues, second.cache?.deno?.misses], [2, 0], "unchanged: a hit (or a quiet repeat)");
      // Its version is unknown (no package): the executable's stamp stands for it.
      utimesSync(join(bin, "deno"), new Date(), new Date(Date.now() + 60_000));
      const third = await check();
      assert.deepEqual([third.totalIssues, third.cache?.deno?.hits, third.cache?.deno?.misses], [2, 0, 1], "another deno: linted again");
    } finally {
      await session.close();
    }
  });

  it("deno.json's lint.include and lint.exclude hold (the state directory inside the root, where nothing Signalint writes is linted)", () => {
    const project = scratchCopy("deno-app", "deno-exclude");
    const cache = tempDir("signalint-cache-");
    const denoDir = tempDir("deno-dir-");
    dirs.push(project, cache, denoDir);
    writeFileSync(join(project, "signalint.config.json"), JSON.stringify({ engines: { deno: true } }));
    const config = JSON.parse(readFileSync(join(project, "deno.json"), "utf8")) as { lint: Record<string, unknown> };
    const lint = { ...config.lint, include: ["src/", "generated/"], exclude: ["generated/"] };
    writeFileSync(join(project, "deno.json"), JSON.stringify({ ...config, lint }));
    for (const dir of ["generated", "scripts"]) {
      mkdirSync(join(project, dir));
      writeFileSync(join(project, dir, "old.ts"), "var legacy = 1;\nexport { legacy };\n");
    }
    const state = join(project, ".signalint-state");
    const raw = rawDeno(project, DENO, denoDir);
    assert.ok(raw.length > 0 && raw.every((issue) => issue.file.startsWith("src/")), "the project's deno lint: src/ only");
    const key = (issue: { file: string; line: number; col: number; rule: string }) => `${issue.file}:${issue.line}:${issue.col} ${issue.rule}`;
    // Twice: the second answer comes from the lint cache.
    for (const round of [1, 2]) {
      const result = runCli(["check", "--format", "json"], { cwd: project, env: { ...ON_PATH, SIGNALINT_CACHE_DIR: cache, SIGNALINT_STATE_DIR: state } });
      const report = JSON.parse(result.stdout) as CliReport;
      assert.equal(report.engines.deno.status, "ok", JSON.stringify(report.engines.deno));
      const fromDeno = report.issues.flatMap((issue) =>
        issue.engine === "deno" ? [issue] : (issue.alsoReportedBy ?? []).filter((other) => other.engine === "deno").map((other) => ({ ...issue, ...other })),
      );
      assert.deepEqual(fromDeno.map(key).sort(), raw.map(key).sort(), `check ${round}: deno lint's own answer, only src/`);
    }
    // deno lint is not kept out of the state directory (its --ignore would drop the excludes): nothing there is a file it lints.
    const written = (readdirSync(state, { recursive: true }) as string[]).filter((path) => statSync(join(state, path)).isFile());
    assert.ok(written.length > 0, "the checks wrote their state there");
    assert.deepEqual(
      written.filter((path) => /\.(c|m)?(j|t)sx?$/.test(path)),
      [],
    );
  });

  it("a local lint plugin edited between two checks (itself, or a module it imports): the next answer is a cold deno lint's", () => {
    const project = scratchCopy("deno-app", "deno-plugin");
    const cache = tempDir("signalint-cache-");
    dirs.push(project, cache);
    writeFileSync(join(project, "signalint.config.json"), JSON.stringify({ engines: { deno: true } }));
    const config = JSON.parse(readFileSync(join(project, "deno.json"), "utf8")) as { lint: Record<string, unknown> };
    writeFileSync(join(project, "deno.json"), JSON.stringify({ ...config, lint: { ...config.lint, plugins: ["./plugins/ban.ts"] } }));
    mkdirSync(join(project, "plugins"));
    writeFileSync(join(project, "plugins", "names.ts"), 'export const BANNED = "label";\n');
    const plugin = (verb: string) =>
      [
        'import { BANNED } from "./names.ts";',
        "const plugin: Deno.lint.Plugin = {",
        '  name: "local",',
        "  rules: {",
        "    ban: {",
        "      create(context) {",
        `        return { Identifier(node) { if (node.name === BANNED) context.report({ node, message: \`${verb}: \${node.name}\` }); } };`,
        "      },",
        "    },",
        "  },",
        "};",
        "export default plugin;",
        "",
      ].join("\n");
    writeFileSync(join(project, "plugins", "ban.ts"), plugin("banned"));
    const line = (issue: { line: number; col: number; rule: string; message: string }) => `${issue.line}:${issue.col} ${issue.rule} ${issue.message}`;
    // One file named: its answer comes from the lint cache while its key holds.
    const answer = () => {
      const result = runCli(["check", "--format", "json", "src/main.ts"], { cwd: project, env: { ...ON_PATH, SIGNALINT_CACHE_DIR: cache } });
      const report = JSON.parse(result.stdout) as CliReport;
      assert.equal(report.engines.deno.status, "ok", JSON.stringify(report.engines.deno));
      return report.issues
        .filter((issue) => issue.engine === "deno")
        .map(line)
        .sort();
    };
    // A cold deno lint: a DENO_DIR of its own each time.
    const cold = () => {
      const denoDir = tempDir("deno-dir-");
      dirs.push(denoDir);
      return rawDeno(project, DENO, denoDir)
        .filter((issue) => issue.file === "src/main.ts")
        .map(line)
        .sort();
    };
    const first = answer();
    assert.ok(
      first.some((entry) => entry.endsWith(" local/ban banned: label")),
      first.join("\n"),
    );
    assert.deepEqual(first, cold());
    assert.deepEqual(answer(), first, "unchanged");
    writeFileSync(join(project, "plugins", "ban.ts"), plugin("forbidden"));
    const second = answer();
    assert.ok(
      second.some((entry) => entry.endsWith(" local/ban forbidden: label")),
      second.join("\n"),
    );
    assert.deepEqual(second, cold(), "the plugin's edit");
    writeFileSync(join(project, "plugins", "names.ts"), 'export const BANNED = "value";\n');
    const third = answer();
    assert.ok(
      third.some((entry) => entry.endsWith(" local/ban forbidden: value")),
      third.join("\n"),
    );
    assert.deepEqual(third, cold(), "the edit of a module the plugin imports");
  });

  it("a lint plugin reaching npm: deno lint is not run (it would write deno.lock into the project), and says why", () => {
    const project = scratchCopy("deno-app", "deno-plugin-npm");
    const cache = tempDir("signalint-cache-");
    dirs.push(project, cache);
    writeFileSync(join(project, "signalint.config.json"), JSON.stringify({ engines: { deno: true } }));
    const config = JSON.parse(readFileSync(join(project, "deno.json"), "utf8")) as { lint: Record<string, unknown> };
    const withPlugin = { ...config, imports: { "is-number": "npm:is-number@7.0.0" }, lint: { ...config.lint, plugins: ["./plugin.ts"] } };
    writeFileSync(join(project, "deno.json"), JSON.stringify(withPlugin));
    // Through the config's imports: a bare name deno resolves from npm.
    writeFileSync(
      join(project, "plugin.ts"),
      'import isNumber from "is-number";\nexport default { name: "n", rules: {} } satisfies Deno.lint.Plugin;\nisNumber(1);\n',
    );
    const before = tree(project);
    const result = runCli(["check", "--format", "json"], { cwd: project, env: { ...ON_PATH, SIGNALINT_CACHE_DIR: cache } });
    const refused = (JSON.parse(result.stdout) as CliReport).engines.deno;
    assert.equal(refused.status, "error");
    assert.match(refused.message ?? "", /deno lint not run: .*plugin.* imports npm:is-number@7\.0\.0.* deno\.lock/);
    assert.deepEqual(tree(project), before, "nothing written in the project tree");
  });

  it("the captured output the parser test reads is what this Deno prints for the fixture", () => {
    const project = scratchCopy("deno-app", "deno-capture");
    const denoDir = tempDir("deno-dir-");
    dirs.push(project, denoDir);
    const live = spawnSync(DENO, ["lint", "--json"], { cwd: project, encoding: "utf8", env: { PATH: CLEAN_PATH, DENO_DIR: denoDir, NO_COLOR: "1" } });
    const stored = readFileSync(join(REPO, "fixtures", "deno-output", "findings.stdout"), "utf8");
    assert.equal(live.status, 1, live.stderr);
    const shape = (stdout: string, root: string) => {
      const result = { exitCode: 1, signal: null, stdout, stderr: "", timedOut: false, outputExceeded: false, spawnError: null, durationMs: 1 };
      const outcome = parseDenoOutput(result, (path) => (path.startsWith(`${root}/`) ? relative(root, path) : null));
      return outcome.ok ? outcome.issues : outcome;
    };
    assert.deepEqual(shape(live.stdout, realpathSync(project)), shape(stored, "/tmp/deno-capture/deno-app"));
  });
});
