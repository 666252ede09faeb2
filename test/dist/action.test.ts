import assert from "node:assert/strict";
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { CLEAN_PATH, removeDir, REPO, scratchCopy, tempDir } from "../helpers.ts";
import { HOST_ASSET, HOST_BINARY, makeRelease, repository, run, type Served, serveRelease } from "./release-dir.ts";

interface Step {
  name: string;
  id?: string;
  uses?: string;
  env: Record<string, string>;
  run?: string;
}

/** The steps of action.yml's composite `runs.steps`, read with the indentation the file keeps (no YAML parser here). */
function actionSteps(): Step[] {
  const lines = readFileSync(join(REPO, "action.yml"), "utf8").split("\n");
  const steps: Step[] = [];
  let block: "env" | "run" | "other" = "other";
  for (const line of lines.slice(lines.indexOf("  steps:") + 1)) {
    const [, itemKey, itemValue] = /^ {4}- ([\w-]+): (.*)$/.exec(line) ?? [];
    const [, key, value] = /^ {6}([\w-]+):(?: (.*))?$/.exec(line) ?? [];
    const step = steps.at(-1);
    if (itemKey !== undefined && itemValue !== undefined) {
      steps.push({ name: "", env: {}, [itemKey]: itemValue });
      block = "other";
    } else if (key !== undefined && step) {
      block = key === "env" ? "env" : key === "run" && value === "|" ? "run" : "other";
      if (block === "run") step.run = "";
      else if (key === "id" || key === "uses" || key === "name") step[key] = value ?? "";
    } else if (block === "env" && step) {
      const [, name, setting] = /^ {8}([\w-]+): (.*)$/.exec(line) ?? [];
      if (name !== undefined && setting !== undefined) step.env[name] = setting;
    } else if (block === "run" && step && (line.startsWith("        ") || line === "")) step.run += `${line.slice(8)}\n`;
  }
  return steps;
}

const RUNNER = {
  OS: { linux: "Linux", darwin: "macOS", win32: "Windows" }[process.platform as string] ?? process.platform,
  ARCH: { x64: "X64", arm64: "ARM64" }[process.arch as string] ?? process.arch,
};

/**
 * Run the action's shell steps the way a runner does (`bash --noprofile --norc -eo pipefail`, a fresh GITHUB_OUTPUT
 * per step, `${{ inputs.* }}` and `${{ steps.*.outputs.* }}` expanded in `env:`), with the release URL pointing at
 * the local server. `uses:` steps (the SARIF upload) are GitHub's own and are not run.
 */
async function runAction(inputs: Record<string, string>, workspace: string, served: Served) {
  const { releases } = repository();
  const temp = tempDir("signalint-runner-temp-");
  const outputs: Record<string, Record<string, string>> = {};
  const logs: { name: string; status: number | null; stdout: string; stderr: string }[] = [];
  const expand = (value: string) =>
    value.replace(/\$\{\{ ([\w.-]+) \}\}/g, (_, path: string) => {
      const [scope, name = "", kind, key = ""] = path.split(".");
      if (scope === "inputs") return inputs[name] ?? assert.fail(`input ${name} not given`);
      if (scope === "steps" && kind === "outputs") return outputs[name]?.[key] ?? "";
      return assert.fail(`unexpected expression ${path}`);
    });
  for (const step of actionSteps()) {
    if (step.run === undefined) continue;
    const output = join(temp, `output-${logs.length}`);
    writeFileSync(output, "");
    const script = join(temp, `step-${logs.length}.sh`);
    writeFileSync(script, step.run.replaceAll(releases, `${served.origin}/releases`));
    const env = Object.fromEntries(Object.entries(step.env).map(([name, value]) => [name, expand(value)]));
    const result = await run("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
      cwd: workspace,
      env: {
        PATH: CLEAN_PATH,
        HOME: process.env.HOME ?? "",
        SIGNALINT_DAEMON: "0",
        RUNNER_OS: RUNNER.OS,
        RUNNER_ARCH: RUNNER.ARCH,
        RUNNER_TEMP: temp,
        GITHUB_OUTPUT: output,
        GITHUB_WORKSPACE: workspace,
        ...env,
      },
    });
    logs.push({ name: step.name, status: result.status, stdout: result.stdout, stderr: result.stderr });
    if (step.id)
      outputs[step.id] = Object.fromEntries(
        readFileSync(output, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
      );
    if (result.status !== 0) break;
  }
  const outputOf = (id: string, key: string) => outputs[id]?.[key];
  return { logs, outputOf, temp, failed: logs.find((log) => log.status !== 0) };
}

const INPUTS = { version: "latest", root: ".", format: "github", args: "", category: "signalint", "fail-on-error": "true", cache: "false" };

describe("the GitHub Action's shell steps, against a local release directory", () => {
  let served: Served;
  let release: string;
  const cleanup: string[] = [];
  before(async () => {
    release = makeRelease({ [HOST_ASSET]: HOST_BINARY });
    served = await serveRelease(release);
  });
  after(() => {
    served.server.close();
    removeDir(join(release, ".."));
    for (const dir of cleanup) removeDir(dir);
  });

  it("downloads this runner's binary from the latest release, verifies it, and prints annotations; errors fail the step", async () => {
    const workspace = scratchCopy("systemic-ts", "action");
    const action = await runAction(INPUTS, workspace, served);
    cleanup.push(workspace, action.temp);
    assert.deepEqual(
      action.logs.map((log) => [log.name, log.status]),
      [
        ["Download and verify signalint-mcp", 0],
        ["Check", 0],
        ["Result", 1],
      ],
    );
    assert.ok(served.requested.includes(`/releases/latest/download/${HOST_ASSET}`));
    assert.match(String(action.logs[0]?.stdout), new RegExp(`^${HOST_ASSET}: OK$`, "m"));
    assert.equal(action.outputOf("install", "bin"), join(action.temp, "signalint-mcp-latest", HOST_ASSET));
    assert.match(String(action.logs[1]?.stdout), /^::error file=src\/.+,line=\d+/m);
    assert.equal(action.outputOf("check", "exit-code"), "1");
  });

  it("fail-on-error false reports the same errors and passes; a pinned version downloads that release", async () => {
    const workspace = scratchCopy("systemic-ts", "action");
    const before = served.requested.length;
    const action = await runAction({ ...INPUTS, version: "v0.1.0", "fail-on-error": "false" }, workspace, served);
    cleanup.push(workspace, action.temp);
    assert.equal(action.failed, undefined, action.failed?.stderr);
    assert.deepEqual(served.requested.slice(before), [`/releases/download/v0.1.0/${HOST_ASSET}`, "/releases/download/v0.1.0/SHA256SUMS"]);
    assert.match(String(action.logs[1]?.stdout), /^::error file=/m);
  });

  it("cache: true keys the cache by lock file and engine versions and checks with --cache-dir (issue 17)", async () => {
    const workspace = scratchCopy("systemic-ts", "action");
    const action = await runAction({ ...INPUTS, cache: "true", "fail-on-error": "false" }, workspace, served);
    cleanup.push(workspace, action.temp);
    assert.equal(action.failed, undefined, action.failed?.stderr);
    const key = String(action.outputOf("install", "key"));
    const restore = String(action.outputOf("install", "restore"));
    assert.match(key, /^signalint-\w+-\w+-[0-9a-f]{16}-[0-9a-f]{16}-local$/);
    assert.ok(key.startsWith(restore) && restore.startsWith(String(action.outputOf("install", "restore-any"))));
    const dir = String(action.outputOf("install", "dir"));
    assert.equal(dir, join(action.temp, "signalint-cache"));
    assert.ok(existsSync(join(dir, "tsc-state")), "the check wrote its TypeScript state into the cache directory");
    assert.match(String(action.logs[1]?.stdout), /^::error file=/m);
  });

  it("a clean project passes", async () => {
    const workspace = scratchCopy("clean", "action");
    const action = await runAction(INPUTS, workspace, served);
    cleanup.push(workspace, action.temp);
    assert.equal(action.failed, undefined, action.failed?.stderr);
    assert.equal(action.outputOf("check", "exit-code"), "0");
  });

  it("a binary that does not match SHA256SUMS is refused before it runs", async () => {
    const workspace = scratchCopy("clean", "action");
    served.tampered.add(HOST_ASSET);
    try {
      const action = await runAction(INPUTS, workspace, served);
      cleanup.push(workspace, action.temp);
      assert.deepEqual(
        action.logs.map((log) => [log.name, log.status]),
        [["Download and verify signalint-mcp", 1]],
      );
      assert.match(String(action.logs[0]?.stdout), /FAILED/);
      assert.equal(action.outputOf("install", "bin"), undefined);
    } finally {
      served.tampered.delete(HOST_ASSET);
    }
  });

  it("format sarif writes a SARIF 2.1.0 file for the upload step", async () => {
    const workspace = scratchCopy("systemic-ts", "action");
    const action = await runAction({ ...INPUTS, format: "sarif", "fail-on-error": "false" }, workspace, served);
    cleanup.push(workspace, action.temp);
    assert.equal(action.failed, undefined, action.failed?.stderr);
    const file = action.outputOf("check", "sarif");
    assert.ok(file && existsSync(file));
    const log = JSON.parse(readFileSync(file, "utf8")) as { version: string; runs: { results: unknown[] }[] };
    assert.equal(log.version, "2.1.0");
    assert.ok((log.runs[0]?.results.length ?? 0) > 0);
    assert.equal(action.outputOf("check", "exit-code"), "1");
  });

  it("root: app (the project below the repository root): annotations and SARIF locations name app/…", async () => {
    const workspace = tempDir("signalint-action-monorepo-");
    cleanup.push(workspace);
    // The fixture with its engines linked, moved below a workspace that is not the project root.
    renameSync(scratchCopy("systemic-ts", "action-app"), join(workspace, "app"));
    const github = await runAction({ ...INPUTS, root: "app", "fail-on-error": "false" }, workspace, served);
    cleanup.push(github.temp);
    assert.equal(github.failed, undefined, github.failed?.stderr);
    const annotations = String(github.logs[1]?.stdout)
      .split("\n")
      .filter((line) => line.startsWith("::error file="));
    assert.ok(annotations.length > 0);
    for (const line of annotations) assert.match(line, /^::error file=app\/src\//, "GitHub resolves annotation paths against the repository root");
    const sarif = await runAction({ ...INPUTS, root: "app", format: "sarif", "fail-on-error": "false" }, workspace, served);
    cleanup.push(sarif.temp);
    const log = JSON.parse(readFileSync(String(sarif.outputOf("check", "sarif")), "utf8")) as {
      runs: { results: { locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string } } }[] }[]; originalUriBaseIds: unknown }[];
    };
    const run = log.runs[0];
    assert.ok(run && run.results.length > 0);
    for (const result of run.results) assert.match(result.locations[0]?.physicalLocation.artifactLocation.uri ?? "", /^app\/src\//);
    assert.deepEqual(run.originalUriBaseIds, { SRCROOT: { uri: `file://${workspace}/` }, PROJECTROOT: { uri: "app/", uriBaseId: "SRCROOT" } });
  });
});
