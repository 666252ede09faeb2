import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { cliPaths } from "../../src/cli/check.ts";
import { fileUrlPath } from "../../src/cli/launch.ts";
import { repositoryPrefix } from "../../src/cli/roots.ts";
import { directoryUri } from "../../src/cli/sarif.ts";
import { normalizeRelativePath, relativeToRoot } from "../../src/core/paths.ts";
import { findOnPath } from "../../src/engines/resolve.ts";
import { pathApi } from "../../src/runtime/path-api.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import type { Runtime } from "../../src/runtime/types.ts";
import { removeDir, tempDir } from "../helpers.ts";

// Windows paths, on Linux: the path logic runs with win32 syntax through the Runtime interface (a real Node runtime
// that reports the win32 platform and a Windows working directory), so the release's Windows job is not the first to
// see a drive letter, a backslash, a case difference or a .cmd shim.

/** A real Node runtime that reports Windows, with `cwd` as its working directory and `env` as its environment. */
function windowsRuntime(cwd: string, env: Record<string, string> = {}): Runtime {
  const runtime = createNodeRuntime();
  return { ...runtime, platform: "win32", cwd: () => cwd, env: (name) => env[name] };
}

describe("Windows paths: project-relative paths", () => {
  const cases: [string, string, string | null][] = [
    ["C:\\repo\\app", "C:\\repo\\app\\src\\a.ts", "src/a.ts"],
    ["C:\\repo\\app", "c:\\REPO\\app\\src\\a.ts", "src/a.ts"], // drive and directory case differ: the same file on NTFS
    ["C:\\repo\\app\\", "C:/repo/app/src/a.ts", "src/a.ts"], // trailing separator, forward slashes
    ["C:\\repo\\app", "C:\\repo\\app", "."],
    ["C:\\repo\\app", "C:\\repo\\app2\\a.ts", null], // a sibling sharing the prefix is outside
    ["C:\\repo\\app", "D:\\repo\\app\\a.ts", null], // another drive
    ["\\\\server\\share\\app", "\\\\server\\share\\app\\src\\a.ts", "src/a.ts"], // UNC
    ["\\\\server\\share\\app", "\\\\other\\share\\app\\a.ts", null],
  ];
  for (const [root, path, expected] of cases) {
    it(`${path} under ${root} → ${expected}`, () => assert.equal(relativeToRoot(root, path), expected));
  }

  it("backslashes are separators in Windows syntax; drive letters and escapes are refused", () => {
    const windows = { windows: true };
    assert.equal(normalizeRelativePath("src\\lib\\a.ts", windows), "src/lib/a.ts");
    assert.equal(normalizeRelativePath("src\\lib\\..\\a.ts", windows), "src/a.ts");
    assert.throws(() => normalizeRelativePath("..\\outside.ts", windows), /escapes the project root/);
    assert.throws(() => normalizeRelativePath("C:\\repo\\a.ts", windows), /absolute paths are not allowed/);
    assert.throws(() => normalizeRelativePath("c:a.ts", windows), /absolute paths are not allowed/);
    assert.throws(() => normalizeRelativePath("\\\\server\\share\\a.ts", windows), /absolute paths are not allowed/);
    assert.throws(() => normalizeRelativePath("src\\a.ts"), /contains '\\'/, "POSIX: a backslash is part of a name, refused");
  });
});

describe("Windows paths: the CLI", () => {
  it("check's paths are relative to the working directory inside the root; absolute ones pass as given", () => {
    const project = { root: "C:\\repo\\app", realRoot: "C:\\repo\\app" };
    const runtime = windowsRuntime("C:\\repo\\app\\src");
    assert.deepEqual(cliPaths(runtime, project, []), ["src"]);
    assert.deepEqual(cliPaths(runtime, project, ["a.ts", "lib\\b.ts"]), ["src/a.ts", "src/lib\\b.ts"]);
    assert.deepEqual(cliPaths(runtime, project, ["C:\\repo\\app\\c.ts", "\\\\server\\share\\d.ts"]), ["C:\\repo\\app\\c.ts", "\\\\server\\share\\d.ts"]);
    assert.deepEqual(cliPaths(windowsRuntime("c:\\Repo\\App"), project, ["x.ts"]), ["x.ts"], "the root in another case is the root");
    assert.deepEqual(cliPaths(windowsRuntime("D:\\elsewhere"), project, []), ["."], "from outside the root: the root");
  });

  it("the runtime's path syntax is win32 on Windows", () => {
    const path = pathApi(windowsRuntime("C:\\"));
    assert.equal(path.resolve("C:\\repo\\app", "..\\lib"), "C:\\repo\\lib");
    assert.equal(path.isAbsolute("\\\\server\\share"), true);
    assert.equal(path.dirname("C:\\"), "C:\\", "walking up stops at the drive root");
  });

  it("CI paths: the project's prefix in the repository and SARIF base URIs", () => {
    assert.deepEqual(repositoryPrefix("C:\\src\\repo", "C:\\src\\repo\\packages\\web"), { root: "C:\\src\\repo", prefix: "packages/web/" });
    assert.deepEqual(repositoryPrefix("C:\\src\\repo", "c:\\SRC\\repo"), { root: "C:\\src\\repo", prefix: "" });
    assert.equal(repositoryPrefix("C:\\src\\repo", "D:\\app"), null);
    assert.equal(directoryUri("C:\\src\\my repo"), "file:///C:/src/my%20repo/");
    assert.equal(directoryUri("\\\\server\\share\\repo"), "file://server/share/repo/");
    assert.equal(directoryUri("/home/dev/repo"), "file:///home/dev/repo/");
  });

  it("a Deno script URL becomes a Windows path for --absolute configs", () => {
    assert.equal(fileUrlPath("file:///C:/tools/signalint-mcp.mjs", true), "C:\\tools\\signalint-mcp.mjs");
    assert.equal(fileUrlPath("file:///C:/my%20tools/signalint-mcp.mjs", true), "C:\\my tools\\signalint-mcp.mjs");
    assert.equal(fileUrlPath("file:///opt/signalint-mcp.mjs", false), "/opt/signalint-mcp.mjs");
  });
});

describe("Windows paths: .cmd layouts on PATH", () => {
  it("a command is found with PATHEXT (.cmd shims), in PATH order, with ; separators", async () => {
    const dir = tempDir("signalint-pathext-");
    try {
      const [first, second] = [join(dir, "first"), join(dir, "second")];
      mkdirSync(first);
      mkdirSync(second);
      writeFileSync(join(second, "eslint.cmd"), "@echo off\r\n");
      writeFileSync(join(second, "node.exe"), "");
      writeFileSync(join(first, "node.bat"), "");
      const runtime = windowsRuntime("C:\\", { PATH: `${first};${second}`, PATHEXT: ".COM;.EXE;.BAT;.CMD" });
      assert.equal(await findOnPath(runtime, "eslint"), join(second, "eslint.cmd"));
      assert.equal(await findOnPath(runtime, "node"), join(first, "node.bat"), "the first PATH entry wins, whatever the extension");
      assert.equal(await findOnPath(runtime, "tsc"), null);
      const pathCase = windowsRuntime("C:\\", { Path: second });
      assert.equal(await findOnPath(pathCase, "eslint"), join(second, "eslint.cmd"), "Windows spells it Path; PATHEXT has a default");
    } finally {
      removeDir(dir);
    }
  });
});
