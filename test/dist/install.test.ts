import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { BUNDLE, CLEAN_PATH, removeDir, REPO, tempDir } from "../helpers.ts";
import { HOST, HOST_ASSET, HOST_BINARY, makeRelease, repository, run, type Served, serveRelease } from "./release-dir.ts";

/** The install lines live in the reference; the README links to them. */
const REFERENCE = readFileSync(join(REPO, "docs", "reference.md"), "utf8");
const VERSION = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;

/** The one-line install command docs/reference.md shows for an OS (the code block after `<!-- install:<os> -->`). */
function installLine(os: "linux" | "macos" | "windows"): string {
  const block = new RegExp(`<!-- install:${os} -->\\n\`\`\`\\w+\\n(.+)\\n\`\`\`\\n`).exec(REFERENCE);
  assert.ok(block, `docs/reference.md has an install:${os} block`);
  return block[1] ?? "";
}

/** Run an install line in a fresh directory with the release URL pointing at the local server. */
async function runLine(line: string, served: Served) {
  const { latest } = repository();
  assert.ok(line.includes(latest), `the line downloads from ${latest}`);
  const cwd = tempDir("signalint-install-");
  const result = await run("sh", ["-c", line.replaceAll(latest, `${served.origin}/latest/download`)], { cwd, env: { PATH: CLEAN_PATH } });
  return { ...result, cwd };
}

describe("the one-line installs of docs/reference.md, against a local release directory made by build/release-assets.mjs", () => {
  let release: string;
  let served: Served;
  const cleanup: string[] = [];
  before(async () => {
    // The macOS line only downloads, verifies and chmods: any bytes under the darwin asset name exercise it here.
    release = makeRelease({ [HOST_ASSET]: HOST_BINARY, "signalint-mcp-darwin-x64": BUNDLE });
    served = await serveRelease(release);
  });
  after(() => {
    served.server.close();
    removeDir(join(release, ".."));
    for (const dir of cleanup) removeDir(dir);
  });

  it("every README, docs/reference.md, package.json and action.yml download URL is the one repository", () => {
    const { slug } = repository();
    for (const file of ["README.md", "docs/reference.md", "action.yml"]) {
      const slugs = new Set([...readFileSync(join(REPO, file), "utf8").matchAll(/github\.com\/([\w.-]+\/[\w.-]+)\/releases/g)].map((match) => match[1]));
      // The README links to the install lines instead of showing them: it may name no release URL, never another.
      assert.deepEqual([...slugs], file === "README.md" && slugs.size === 0 ? [] : [slug], file);
    }
  });

  it("the release has each binary raw and compressed, the .mjs bundle, and SHA256SUMS over every asset", () => {
    const assets = readdirSync(release).sort();
    assert.deepEqual(
      assets,
      ["SHA256SUMS", HOST_ASSET, `${HOST_ASSET}.tar.gz`, "signalint-mcp-darwin-x64", "signalint-mcp-darwin-x64.tar.gz", "signalint-mcp.mjs"].sort(),
    );
    const listed = readFileSync(join(release, "SHA256SUMS"), "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split("  ")[1]);
    assert.deepEqual(listed, assets.filter((name) => name !== "SHA256SUMS").sort());
    assert.equal(spawnSync("sha256sum", ["-c", "SHA256SUMS"], { cwd: release }).status, 0);
    // The archive holds the binary under its asset name, executable.
    assert.match(execFileSync("tar", ["-tvzf", `${HOST_ASSET}.tar.gz`], { cwd: release, encoding: "utf8" }), new RegExp(`^-rwxr-xr-x .* ${HOST_ASSET}\\n$`));
  });

  it(`the Linux line downloads ${HOST_ASSET} under its asset name, verifies it and makes it executable`, {
    skip: HOST.startsWith("linux") ? false : "Linux only",
  }, async () => {
    const result = await runLine(installLine("linux"), served);
    cleanup.push(result.cwd);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, new RegExp(`^${HOST_ASSET}: OK$`, "m"));
    const binary = join(result.cwd, HOST_ASSET);
    assert.equal(statSync(binary).mode & 0o111, 0o111);
    assert.equal(execFileSync(binary, ["--version"], { encoding: "utf8" }).trim(), VERSION);
  });

  it("the Linux line refuses a binary that does not match SHA256SUMS and deletes it", {
    skip: HOST.startsWith("linux") ? false : "Linux only",
  }, async () => {
    served.tampered.add(HOST_ASSET);
    try {
      const result = await runLine(installLine("linux"), served);
      cleanup.push(result.cwd);
      assert.notEqual(result.status, 0);
      assert.match(result.stdout + result.stderr, /FAILED/);
      // Issue 19: an unverified binary is no longer left on disk (it was left non-executable).
      assert.ok(!existsSync(join(result.cwd, HOST_ASSET)), "the unverified download is gone");
    } finally {
      served.tampered.delete(HOST_ASSET);
    }
  });

  it("the macOS line (shasum -a 256) downloads, verifies and chmods the darwin asset for this machine's arch", {
    skip: process.arch === "x64" ? false : "x64 only",
  }, async () => {
    const result = await runLine(installLine("macos"), served);
    cleanup.push(result.cwd);
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /^signalint-mcp-darwin-x64: OK$/m);
    assert.equal(statSync(join(result.cwd, "signalint-mcp-darwin-x64")).mode & 0o111, 0o111);
    served.tampered.add("signalint-mcp-darwin-x64");
    try {
      const bad = await runLine(installLine("macos"), served);
      cleanup.push(bad.cwd);
      assert.notEqual(bad.status, 0);
      assert.ok(!existsSync(join(bad.cwd, "signalint-mcp-darwin-x64")), "the unverified download is gone");
    } finally {
      served.tampered.delete("signalint-mcp-darwin-x64");
    }
  });

  it("the Windows line names the win-x64 asset and checks it with Get-FileHash before keeping it", () => {
    const line = installLine("windows");
    assert.ok(line.includes(`$A="signalint-mcp-win-x64.exe"`) && line.includes(repository().latest));
    assert.match(line, /Get-FileHash \$A -Algorithm SHA256\)\.Hash -ne \$H\) \{ Remove-Item \$A; throw/);
  });

  it("a clone runs the bundle directly: dist/signalint-mcp.mjs has a node shebang and its executable bit", () => {
    assert.ok(readFileSync(BUNDLE, "utf8").startsWith("#!/usr/bin/env node\n"));
    assert.equal(statSync(BUNDLE).mode & 0o111, 0o111);
    assert.equal(execFileSync(BUNDLE, ["--version"], { encoding: "utf8", env: { PATH: CLEAN_PATH } }).trim(), VERSION);
  });
});
