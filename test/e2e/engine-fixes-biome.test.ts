// Biome's fixes of many files run once, on an overlay of the project in the cache directory (service/fix/biome-overlay.ts):
// what Biome makes of the files there equals `biome lint --write` in the project itself, with a config whose parts are
// scoped by path (an override turning a rule off for one directory, an ignored directory), and the overlay leaves
// nothing behind — neither in the project's tree nor in the cache directory.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import type { PreviewResult } from "../../src/core/fix-contracts.ts";
import { call, connect, linkPackage, removeDir, REPO, structured, tempDir } from "../helpers.ts";
import { projectFrom } from "../helpers/project.ts";
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
    const session = await connect(project, { XDG_CACHE_HOME: cacheHome });
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
    // No overlay left in the cache directory (its links removed, not followed: the project is intact above).
    const overlays = (dir: string): string[] =>
      existsSync(dir)
        ? readdirSync(dir, { recursive: true })
            .map(String)
            .filter((path) => /(^|\/)overlay-[^/]+$/.test(path))
        : [];
    assert.deepEqual(overlays(cacheHome), []);
  });
});
