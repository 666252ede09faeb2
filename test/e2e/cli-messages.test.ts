import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { ENVIRONMENT, INTERNAL_ENVIRONMENT } from "../../src/cli/commands.ts";
import { BUNDLE, CLEAN_PATH, fixture, linkPackage, removeDir, REPO, runCli, tempDir } from "../helpers.ts";

/** A project with one warning (oxlint's no-debugger) in src/a.js and a type error in src/b.ts, at `dir`. */
function smallProject(dir: string): string {
  mkdirSync(join(dir, "src"), { recursive: true });
  writeFileSync(join(dir, "package.json"), '{ "name": "small", "private": true }\n');
  writeFileSync(join(dir, "src", "a.js"), "export function f() {\n  debugger;\n}\n");
  linkPackage(dir, "oxlint", join(REPO, "node_modules", "oxlint"));
  return dir;
}

function sarifValidator(): (value: unknown) => boolean {
  const path = join(REPO, "node_modules", "@microsoft", "jest-sarif", "lib", "schemas", "sarif-2.1.0-rtm.5.json");
  const { $schema: _draft, id, ...schema } = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile({ ...schema, $id: id as string });
}

/** Run the bundle's CLI with stdin. */
function runCliWithInput(args: string[], input: string) {
  const result = spawnSync(process.execPath, [BUNDLE, ...args], {
    cwd: fixture("clean"),
    env: { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", SIGNALINT_DAEMON: "0", SIGNALINT_STATE_DIR: tempDir("signalint-state-") },
    encoding: "utf8",
    input,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("CI paths when the project root is below the repository root", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("annotations and SARIF locations are relative to the repository (.git), with PROJECTROOT inside it", () => {
    const repo = tempDir("signalint-repo-");
    dirs.push(repo);
    mkdirSync(join(repo, ".git"));
    const app = smallProject(join(repo, "app"));
    const github = runCli(["check", "--format", "github", "--root", "app"], { cwd: repo });
    assert.equal(github.status, 0, github.stderr);
    assert.match(github.stdout, /^::warning file=app\/src\/a\.js,line=2,col=3,/m);
    const sarif = runCli(["check", "--format", "sarif"], { cwd: app });
    const log = JSON.parse(sarif.stdout);
    assert.ok(sarifValidator()(log));
    const run = log.runs[0];
    assert.deepEqual(run.results[0].locations[0].physicalLocation.artifactLocation, { uri: "app/src/a.js", uriBaseId: "SRCROOT" });
    assert.deepEqual(run.originalUriBaseIds, { SRCROOT: { uri: `file://${repo}/` }, PROJECTROOT: { uri: "app/", uriBaseId: "SRCROOT" } });
  });

  it("without .git, GITHUB_WORKSPACE is the base when it holds the project; else the project root", () => {
    const workspace = tempDir("signalint-workspace-");
    dirs.push(workspace);
    smallProject(join(workspace, "packages", "web"));
    const inWorkspace = runCli(["check", "--format", "github", "--root", "packages/web"], { cwd: workspace, env: { GITHUB_WORKSPACE: workspace } });
    assert.match(inWorkspace.stdout, /^::warning file=packages\/web\/src\/a\.js,/m);
    const alone = runCli(["check", "--format", "github", "--root", "packages/web"], { cwd: workspace });
    assert.match(alone.stdout, /^::warning file=src\/a\.js,/m);
  });
});

describe("messages say what happened and what to do", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("--max-warnings exceeded: exit 1 and a line saying so", () => {
    const dir = smallProject(tempDir("signalint-maxwarn-"));
    dirs.push(dir);
    const result = runCli(["check", "--max-warnings", "0"], { cwd: dir });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /1 warnings are more than --max-warnings 0, so the check fails \(exit 1\): fix some, or raise the limit/);
    assert.equal(runCli(["check", "--max-warnings", "1"], { cwd: dir }).stderr, "");
  });

  it("no engine installed: each engine's reason and 'no engine ran', exit 1 and no word of --max-warnings", () => {
    const dir = tempDir("signalint-noengine-");
    dirs.push(dir);
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "package.json"), '{ "name": "bare", "private": true }\n');
    writeFileSync(join(dir, "src", "a.js"), "export const a = 1;\n");
    // No engine on PATH either (node runs the CLI by its absolute path).
    const result = runCli(["check"], { cwd: dir, env: { PATH: "/nonexistent" } });
    assert.equal(result.status, 1);
    assert.equal(result.stderr, "");
    assert.match(result.stdout, /^- tsc did not run: tsc not found in the project's node_modules or on PATH/m);
    assert.match(result.stdout, /^- oxlint did not run: oxlint not found/m);
    assert.match(result.stdout, /Not checked: no engine ran\.\n$/);
  });

  it("text output names every engine that did not run and why: a missing default engine, ESLint with no config, one off in the config", () => {
    const dir = tempDir("signalint-notrun-");
    dirs.push(dir);
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "package.json"), '{ "name": "not-run", "private": true }\n');
    writeFileSync(join(dir, "tsconfig.json"), '{ "compilerOptions": { "strict": true, "noEmit": true }, "include": ["src"] }\n');
    writeFileSync(join(dir, "signalint.config.json"), '{ "engines": { "biome": false } }\n');
    writeFileSync(join(dir, "src", "a.ts"), "export const a = 1;\n");
    linkPackage(dir, "typescript", join(REPO, "node_modules", "typescript"));
    linkPackage(dir, "eslint", join(REPO, "node_modules", "eslint"));
    // tsc runs and finds nothing; oxlint (on by default) is not installed anywhere the check looks.
    const result = runCli(["check"], { cwd: dir, env: { PATH: "/nonexistent" } });
    assert.equal(result.status, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /^- oxlint did not run: oxlint not found in the project's node_modules or on PATH; install it with `npm i -D oxlint`$/m);
    assert.match(result.stdout, /^- eslint did not run: no ESLint config \(eslint\.config\.\* or \.eslintrc\*\) in the project root$/m);
    assert.match(result.stdout, /^- biome did not run: disabled in signalint\.config\.json \(engines\)$/m);
    assert.doesNotMatch(result.stdout, /^- tsc/m, "tsc ran");
    assert.match(result.stdout, /No issues found\.\n$/);
    // The hook says the same after an edit (on stderr, where hooks write).
    const state = tempDir("signalint-state-");
    dirs.push(state);
    const hook = spawnSync(process.execPath, [BUNDLE, "hook"], {
      cwd: dir,
      env: { PATH: "/nonexistent", HOME: dir, SIGNALINT_DAEMON: "0", SIGNALINT_STATE_DIR: state },
      input: JSON.stringify({ cwd: dir, tool_input: { file_path: join(dir, "src", "a.ts") } }),
      encoding: "utf8",
    });
    assert.equal(hook.status, 0, hook.stderr);
    assert.match(hook.stderr, /^- oxlint did not run: oxlint not found/m);
    // Engines off by the project's choice are not repeated after every clean edit (they are in `check`'s output).
    assert.doesNotMatch(hook.stderr, /^- (eslint|biome) did not run/m);
  });

  it("Yarn Plug'n'Play: its engines are named as unreachable (never taken from PATH), and what to change is said", () => {
    const dir = tempDir("signalint-pnp-");
    dirs.push(dir);
    mkdirSync(join(dir, "src"));
    const manifest = { name: "pnp-app", private: true, packageManager: "yarn@4.9.2", devDependencies: { typescript: "5.9.3", eslint: "9.39.1" } };
    writeFileSync(join(dir, "package.json"), JSON.stringify(manifest));
    writeFileSync(join(dir, ".pnp.cjs"), "// Yarn's runtime: the packages are in .yarn/cache zip archives\n");
    writeFileSync(join(dir, "eslint.config.js"), "export default [];\n");
    writeFileSync(join(dir, "src", "a.ts"), 'export const a: number = "x";\n');
    writeFileSync(join(dir, "src", "b.js"), "export const b = 1;\n");
    // A tsc on PATH is not the project's compiler: it is not used.
    const bin = tempDir("signalint-pnp-path-");
    dirs.push(bin);
    // As a global install links it: the package's bin entry.
    symlinkSync(join(REPO, "node_modules", "typescript", "bin", "tsc"), join(bin, "tsc"));
    const result = runCli(["check", "--format", "json"], { cwd: dir, env: { PATH: `${bin}:${CLEAN_PATH}` } });
    assert.equal(result.status, 1);
    const report = JSON.parse(result.stdout);
    assert.equal(report.status, "error");
    assert.equal(report.engines.tsc.status, "error");
    assert.match(report.engines.tsc.message, /Yarn Plug'n'Play \(\.pnp\.cjs\), whose packages Signalint cannot load; set `nodeLinker: node-modules`/);
    // eslint is a dependency (installed through Plug'n'Play): unreachable, never silently off.
    assert.equal(report.engines.eslint.status, "error");
    assert.match(
      report.engines.eslint.message,
      /^the project depends on eslint but eslint not found in a node_modules: the project installs with Yarn Plug'n'Play/,
    );
    // oxlint is no dependency: off, as in any project without it.
    assert.equal(report.engines.oxlint.status, "disabled");
    assert.deepEqual(report.issues, []);
    // The same project without Plug'n'Play takes the tsc on PATH (it has no package of its own): the control.
    removeDir(join(dir, ".pnp.cjs"));
    const control = JSON.parse(runCli(["check", "--format", "json"], { cwd: dir, env: { PATH: `${bin}:${CLEAN_PATH}` } }).stdout);
    assert.equal(control.engines.tsc.status, "ok");
    assert.deepEqual(
      control.issues.filter((issue: { engine: string }) => issue.engine === "tsc").map((issue: { rule: string }) => issue.rule),
      ["TS2322"],
    );
  });

  it("issues outside the checked paths are explained in the text format, and response advice names no MCP tool", () => {
    const text = runCli(["check", "src/search.ts"], { cwd: fixture("systemic-ts") });
    assert.match(text.stdout, /\(\d+ more issues? outside the checked paths or in files signalint\.config\.json ignores: not listed; check the whole project/);
    const response = runCli(["check", "--format", "response"], { cwd: fixture("systemic-ts") });
    assert.match(JSON.parse(response.stdout).nextStep, /signalint-mcp check --format json lists its \d+ locations/);
    assert.doesNotMatch(JSON.parse(response.stdout).nextStep, /get_issue_detail|check_files|check_project/);
    // A checked file without issues, others with: the summary does not read as if the program had none.
    const copy = tempDir("signalint-outside-");
    cpSync(fixture("systemic-ts"), copy, { recursive: true });
    linkPackage(copy, "typescript", join(REPO, "node_modules", "typescript"));
    writeFileSync(join(copy, "src", "clean.ts"), "export const ok: number = 1;\n");
    const clean = runCli(["check", "src/clean.ts"], { cwd: copy });
    removeDir(copy);
    assert.match(clean.stdout, /more issues outside the checked paths[^\n]*\nNo issues in the checked paths\.\n$/);
  });

  it("hook: stdin that is not JSON, or JSON naming no file, says so and how to set the hook up", () => {
    const bad = runCli(["hook"], { cwd: fixture("clean") });
    assert.equal(bad.status, 1);
    assert.match(bad.stderr, /stdin was empty; this verb reads the JSON an editor hook sends .* signalint-mcp init --hooks/);
    const notJson = runCliWithInput(["hook"], "not json");
    assert.match(notJson.stderr, /stdin is not JSON/);
    const noFile = runCliWithInput(["hook"], '{"tool_input":{}}');
    assert.match(noFile.stderr, /names no edited file \(Claude Code, Gemini CLI: tool_input\.file_path; Cursor: file_path; Codex: an apply_patch patch/);
  });

  it("check <path> in another project uses that project's root (its config applies), and says so", () => {
    const result = runCli(["check", fixture("bad-config")], { cwd: fixture("clean") });
    assert.equal(result.status, 2, "bad-config's own broken config is read");
    assert.match(result.stderr, /unknown key 'engines\.tscc'/);
  });

  it("check <dir> with a signalint.config.json of its own, inside the project: names the root used and --root", () => {
    const outer = smallProject(tempDir("signalint-outer-"));
    dirs.push(outer);
    mkdirSync(join(outer, "sub"));
    writeFileSync(join(outer, "sub", "signalint.config.json"), "{}\n");
    writeFileSync(join(outer, "sub", "c.js"), "export const c = 1;\n");
    const result = runCli(["check", "sub"], { cwd: outer });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stderr, /sub has its own signalint\.config\.json, but it is checked as part of the project at .*; .*signalint-mcp check --root sub/);
  });

  it("an invalid SIGNALINT_PROGRESS_HEARTBEAT_MS stops the server at start-up, naming the variable", () => {
    const result = runCli(["serve"], { cwd: fixture("clean"), env: { SIGNALINT_PROGRESS_HEARTBEAT_MS: "soon" } });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /SIGNALINT_PROGRESS_HEARTBEAT_MS: expected a whole number of milliseconds, got "soon"/);
  });

  it("an invalid variable is refused before a daemon or the state directory is touched", () => {
    // SIGNALINT_PROGRESS_HEARTBEAT_MS was read after the front had reached (and started) the project's daemon: the
    // server printed the error, then stayed up on the daemon connection with a daemon running. SIGNALINT_CACHE_MAX_MB
    // was read when the service started, after it took the ownership lock, which stayed behind.
    const refused: [string, string, RegExp][] = [
      ["SIGNALINT_PROGRESS_HEARTBEAT_MS", "soon", /SIGNALINT_PROGRESS_HEARTBEAT_MS: expected a whole number of milliseconds, got "soon"/],
      ["SIGNALINT_CACHE_MAX_MB", "lots", /SIGNALINT_CACHE_MAX_MB must be a whole number of megabytes, not "lots"/],
    ];
    for (const [name, value, message] of refused) {
      const stateDir = tempDir("signalint-refused-state-");
      const env = { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", SIGNALINT_DAEMON: "1", SIGNALINT_STATE_DIR: stateDir };
      try {
        const result = spawnSync(process.execPath, [BUNDLE, "serve"], {
          cwd: fixture("clean"),
          env: { ...env, [name]: value },
          encoding: "utf8",
          input: "",
          timeout: 30_000,
        });
        assert.equal(result.status, 2, `${name}: ${result.stderr}`);
        assert.match(result.stderr, message);
        assert.deepEqual(readdirSync(stateDir), [], `${name}: no daemon record, no ownership lock`);
      } finally {
        // A daemon started anyway must not outlive the test.
        spawnSync(process.execPath, [BUNDLE, "daemon", "stop"], { cwd: fixture("clean"), env, encoding: "utf8", timeout: 30_000 });
        removeDir(stateDir);
      }
    }
  });

  it("unknown options name the verb and its help", () => {
    const result = runCli(["init", "--forse"], { cwd: fixture("clean") });
    assert.equal(result.status, 2);
    assert.match(result.stderr, /^signalint-mcp: init: Unknown option '--forse'.*; see signalint-mcp init --help/);
  });
});

describe("help is generated from the verbs' declarations", () => {
  it("each verb's --help lists every option its parser takes; the top-level help lists every verb and variable", () => {
    const init = runCli(["init", "--help"], { cwd: fixture("clean") }).stdout;
    for (const option of ["--client", "--print", "--yes", "--force", "--absolute", "--hooks", "--windsurf-global", "--codex-global", "--root"])
      assert.ok(init.includes(`  ${option}`), `init --help lists ${option}`);
    const check = runCli(["check", "--help"], { cwd: fixture("clean") }).stdout;
    assert.match(check, /response \(the MCP server's CheckResponse\)/);
    const top = runCli(["--help"], { cwd: fixture("clean") }).stdout;
    for (const verb of ["serve", "check", "init", "hook", "doctor", "stats"]) assert.match(top, new RegExp(`^  signalint-mcp ${verb}\\b`, "m"));
    for (const [name] of ENVIRONMENT) assert.match(top, new RegExp(`^  ${name} `, "m"));
  });

  it("every SIGNALINT_ variable the source reads is in the help's list or the internal list", () => {
    const listed = new Set<string>([...ENVIRONMENT.map(([name]) => name), ...INTERNAL_ENVIRONMENT]);
    const files = readdirSync(join(REPO, "src"), { recursive: true })
      .map(String)
      .filter((name) => name.endsWith(".ts"));
    for (const file of files) {
      for (const [name] of readFileSync(join(REPO, "src", file), "utf8").matchAll(/SIGNALINT_[A-Z_]+/g)) {
        assert.ok(listed.has(name), `${file} reads ${name}, which the help does not list`);
      }
    }
  });
});
