// Biome's fixes of many files run once, on an overlay of the project in the cache directory (service/fix/biome-overlay.ts):
// what Biome makes of the files there equals `biome lint --write` in the project itself, with a config whose parts are
// scoped by path (an override turning a rule off for one directory, an ignored directory), and the overlay leaves
// nothing behind — neither in the project's tree nor in the cache directory.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import type { PreviewResult } from "../../src/core/fix-contracts.ts";
import { call, connect, linkPackage, removeDir, REPO, structured, tempDir } from "../helpers.ts";
import { plantLoggingEngine, projectFrom, writeFiles } from "../helpers/project.ts";
import { assertTreeUnchanged, snapshotTree } from "../helpers/tree.ts";

const BIOME = join(REPO, "node_modules", "@biomejs", "biome");
const CAST = "export function flag(x) {\n  return !!(x) ? 1 : 2;\n}\n";
const FILES = ["src/a.js", "src/legacy/b.js", "src/gen/c.js", "src/deep/er/d.js"];

describe("Biome's fixes through an overlay of the project", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("equal biome lint --write in the project, path-scoped config parts included; nothing is left behind", async () => {
    const biomeJson = {
      formatter: { enabled: false },
      assist: { enabled: false },
      files: { includes: ["**", "!src/gen/**"] },
      linter: { enabled: true, rules: { recommended: true } },
      overrides: [{ includes: ["src/legacy/**"], linter: { rules: { complexity: { noExtraBooleanCast: "off" } } } }],
    };
    const project = projectFrom(
      {
        "package.json": JSON.stringify({ name: "overlay", private: true, type: "module", scripts: { lint: "biome lint ." } }),
        "biome.json": JSON.stringify(biomeJson, null, 2),
        "signalint.config.json": JSON.stringify({ engines: { oxlint: false } }),
        ...Object.fromEntries(FILES.map((file) => [file, CAST])),
        "src/other.js": "export const other = 1;\n",
      },
      "signalint-biome-overlay-",
    );
    dirs.push(project);
    linkPackage(project, "@biomejs/biome", BIOME);
    // The engine's own fixer on a copy of the project.
    const copy = tempDir("signalint-biome-own-");
    dirs.push(copy);
    cpSync(project, copy, { recursive: true, verbatimSymlinks: true });
    const own = spawnSync(join(BIOME, "bin", "biome"), ["lint", "--write", "."], { cwd: copy, encoding: "utf8" });
    assert.ok(own.status !== null && own.status <= 1, own.stderr);
    const expected = Object.fromEntries(FILES.map((file) => [file, readFileSync(join(copy, file), "utf8")]));
    // The scoped parts matter: one file fixed, the override's and the ignored directory's not.
    assert.notEqual(expected["src/a.js"], CAST);
    assert.equal(expected["src/legacy/b.js"], CAST);
    assert.equal(expected["src/gen/c.js"], CAST);

    const cacheHome = tempDir("signalint-biome-cache-");
    dirs.push(cacheHome);
    // Its own temporary directory: where the overlay is built (outside the cache directory: see biome-overlay.ts).
    const tmp = tempDir("signalint-biome-tmp-");
    dirs.push(tmp);
    const session = await connect(project, { XDG_CACHE_HOME: cacheHome, TMPDIR: tmp });
    try {
      structured<CheckResponse>(await call(session.client, "check_project"));
      const before = snapshotTree(project);
      const preview = structured<PreviewResult>(await call(session.client, "preview_diagnostic_fix", { files: FILES }));
      assertTreeUnchanged(project, before);
      const patched = new Map(preview.files.map((file) => [file.file, file]));
      assert.deepEqual([...patched.keys()].sort(), ["src/a.js", "src/deep/er/d.js"]);
      for (const file of FILES) {
        const diff = patched.get(file)?.diff;
        if (expected[file] === CAST) assert.equal(diff, undefined, file);
        else assert.match(diff ?? "", /^\+ {2}return \(x\) \? 1 : 2;$/m, file);
      }
      assert.ok(patched.get("src/a.js")?.fixes?.every((fix) => fix.engine === "biome"));
    } finally {
      await session.close();
    }
    // No overlay left in the temporary or the cache directory (its links removed, not followed: the project is intact above).
    const overlays = (dir: string): string[] =>
      existsSync(dir)
        ? readdirSync(dir, { recursive: true })
            .map(String)
            .filter((path) => /(^|\/)(overlay|signalint-biome-fix-)[^/]*$/.test(path))
        : [];
    assert.deepEqual(overlays(cacheHome), []);
    assert.deepEqual(overlays(tmp), []);
  });

  /** `biome lint --write` of `args` from `dir` (relative to a fresh copy of `root`), and the copy's text of `files` after. */
  function fixedByBiome(root: string, dir: string, args: string[], files: readonly string[]): Record<string, string> {
    const copy = tempDir("signalint-biome-own-");
    dirs.push(copy);
    cpSync(root, copy, { recursive: true, verbatimSymlinks: true });
    const own = spawnSync(join(BIOME, "bin", "biome"), ["lint", "--write", ...args], { cwd: join(copy, dir), encoding: "utf8" });
    assert.ok(own.status !== null && own.status <= 1, own.stderr);
    return Object.fromEntries(files.map((file) => [file, readFileSync(join(copy, file), "utf8")]));
  }

  /** The texts a preview of `files` makes (the project's text where it changes nothing); the tree untouched by it. */
  async function previewedTexts(project: string, files: readonly string[]): Promise<Record<string, string>> {
    const session = await connect(project);
    try {
      structured<CheckResponse>(await call(session.client, "check_project"));
      const before = snapshotTree(project);
      const preview = structured<PreviewResult>(await call(session.client, "preview_diagnostic_fix", { files }));
      assertTreeUnchanged(project, before);
      const post = (file: string) => {
        const diff = preview.files.find((entry) => entry.file === file)?.diff;
        const text = readFileSync(join(project, file), "utf8");
        // These files change one line: the diff's `+` line replaces its `-` line.
        const removed = diff?.split("\n").find((line) => line.startsWith("-") && !line.startsWith("---"));
        const added = diff?.split("\n").find((line) => line.startsWith("+") && !line.startsWith("+++"));
        return removed !== undefined && added !== undefined ? text.replace(removed.slice(1), added.slice(1)) : text;
      };
      return Object.fromEntries(files.map((file) => [file, post(file)]));
    } finally {
      await session.close();
    }
  }

  it("a package script that lints ../shared: Biome runs from the package in the overlay, never in the project", async () => {
    const biomeJson = { formatter: { enabled: false }, assist: { enabled: false }, linter: { enabled: true, rules: { recommended: true } } };
    const files = ["packages/app/a.js", "packages/shared/x.js"];
    const project = projectFrom(
      {
        "package.json": JSON.stringify({ name: "overlay-ws", private: true, type: "module", workspaces: ["packages/*"] }),
        "biome.json": JSON.stringify(biomeJson),
        "signalint.config.json": JSON.stringify({ engines: { oxlint: false } }),
        "packages/app/package.json": JSON.stringify({ name: "app", private: true, scripts: { lint: "biome lint . ../shared" } }),
        "packages/shared/package.json": JSON.stringify({ name: "shared", private: true }),
        ...Object.fromEntries(files.map((file) => [file, CAST])),
      },
      "signalint-biome-overlay-ws-",
    );
    dirs.push(project);
    linkPackage(project, "@biomejs/biome", BIOME);
    const expected = fixedByBiome(project, "packages/app", [".", "../shared"], files);
    assert.notEqual(expected["packages/shared/x.js"], CAST, "the package's script fixes the shared file");
    assert.deepEqual(await previewedTexts(project, files), expected);
    // The shared file asked alone: no asked file lies in packages/app, where Biome runs (its directory is still real).
    const shared = ["packages/shared/x.js"];
    assert.deepEqual(await previewedTexts(project, shared), { "packages/shared/x.js": expected["packages/shared/x.js"] });
  });

  // Each a package's own config, read where it lies (Biome passes over one that is a link, or lies under a `.cache`
  // directory such as the default cache directory, where the overlay was once built): a rule it turns off stays unfixed.
  for (const nested of [
    { root: false, extends: "//", linter: { rules: { complexity: { noExtraBooleanCast: "off" } } } },
    { root: false, linter: { rules: { complexity: { noExtraBooleanCast: "off" } } } },
  ])
    it(`a nested config (${JSON.stringify(nested).slice(0, 34)}…): one Biome run on the overlay, its rules as in the project`, async () => {
      const files = ["src/a.js", "packages/a/src/b.js"];
      const project = projectFrom(
        {
          "package.json": JSON.stringify({ name: "overlay-nested", private: true, type: "module", scripts: { lint: "biome lint ." } }),
          "biome.json": JSON.stringify({ formatter: { enabled: false }, assist: { enabled: false }, linter: { enabled: true, rules: { recommended: true } } }),
          "packages/a/biome.json": JSON.stringify(nested),
          "signalint.config.json": JSON.stringify({ engines: { oxlint: false } }),
          ...Object.fromEntries(files.map((file) => [file, CAST])),
        },
        "signalint-biome-nested-",
      );
      dirs.push(project);
      const log = join(tempDir("signalint-biome-log-"), "runs.jsonl");
      dirs.push(join(log, ".."));
      plantLoggingEngine(project, log, { name: "@biomejs/biome", bin: "biome", realBin: join("bin", "biome") });
      const expected = fixedByBiome(project, ".", ["."], files);
      assert.notEqual(expected["src/a.js"], CAST, "the root's rules fix the root's file");
      assert.equal(expected["packages/a/src/b.js"], CAST, "the nested config turns the rule off");
      writeFileSync(log, "");
      assert.deepEqual(await previewedTexts(project, files), expected);
      // The preview's fix runs: one `lint --write` over both files, none on stdin (a process per file).
      const runs = readFileSync(log, "utf8")
        .trim()
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as string[]);
      const fixes = runs.filter((args) => args.includes("--write"));
      assert.equal(fixes.length, 1, JSON.stringify(runs));
      assert.ok(!fixes.some((args) => args.some((arg) => arg.startsWith("--stdin-file-path"))), JSON.stringify(fixes));
    });

  it("a Biome config above the project root (a package of a Biome monorepo): the fixes its rules allow, as Biome run in the package", async () => {
    const monorepo = tempDir("signalint-biome-above-");
    dirs.push(monorepo);
    const off = { linter: { enabled: true, rules: { recommended: true, complexity: { noExtraBooleanCast: "off" } } } };
    const project = join(monorepo, "packages", "app");
    writeFiles(monorepo, {
      "biome.json": JSON.stringify({ root: true, formatter: { enabled: false }, assist: { enabled: false }, ...off }),
      "packages/app/package.json": JSON.stringify({ name: "app", private: true, type: "module", scripts: { lint: "biome lint ." } }),
      "packages/app/biome.json": JSON.stringify({ root: false, extends: "//" }),
      "packages/app/signalint.config.json": JSON.stringify({ engines: { oxlint: false } }),
      "packages/app/src/a.js": `let a = 1;\nexport const b = a;\n${CAST}`,
    });
    linkPackage(project, "@biomejs/biome", BIOME);
    const fixed = fixedByBiome(monorepo, "packages/app", ["."], ["packages/app/src/a.js"])["packages/app/src/a.js"] ?? "";
    assert.match(fixed, /^const a = 1;$/m, "Biome fixes useConst here");
    assert.match(fixed, /!!\(x\)/, "and the root's config turns noExtraBooleanCast off");
    assert.deepEqual(await previewedTexts(project, ["src/a.js"]), { "src/a.js": fixed });
  });
});
