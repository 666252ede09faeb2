import assert from "node:assert/strict";
import { cpSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { resolveEngine } from "../../src/engines/resolve.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { call, connect, enginesOf, fixture, removeDir, structured, tempDir } from "../helpers.ts";
import { ENGINES, pnpmLayout, versionOf, windowsLayout, yarnLayout } from "../layouts.ts";

const runtime = createNodeRuntime();
const NODE = { command: process.execPath, args: [] };
describe("engine packages in pnpm, Windows and Yarn layouts", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  for (const [name, install] of [
    ["pnpm", pnpmLayout],
    ["windows", windowsLayout],
    ["yarn", yarnLayout],
  ] as const) {
    it(`${name}: each engine resolves to its package with its version, runs, and TypeScript goes warm`, async () => {
      const project = join(tempDir(`signalint-${name}-`), "app");
      dirs.push(dirname(project));
      cpSync(fixture("biome-app"), project, { recursive: true });
      install(project);
      for (const { engine, pkg } of ENGINES) {
        const resolved = await resolveEngine(runtime, engine, { start: project, node: NODE });
        assert.equal(resolved?.source, "package bin", engine);
        assert.equal(resolved?.version, versionOf(pkg), `${engine} version`);
        assert.equal(resolved?.packageDir, realpathSync(join(project, "node_modules", pkg)), `${engine} is its real package`);
        assert.equal(resolved?.command, process.execPath, `${engine}'s JS entry runs through node`);
      }
      const session = await connect(project);
      try {
        const first = structured<CheckResponse>(await call(session.client, "check_project"));
        const engines = await enginesOf(session, first.checkId);
        for (const { engine, pkg } of ENGINES) {
          assert.deepEqual(engines[engine], { status: "ok", version: versionOf(pkg) }, engine);
        }
        // The first check built the warm program (in its host, from this layout's typescript): the next one reuses it.
        const mode = structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/index.ts"] })).cache?.tsc?.mode ?? "";
        assert.equal(mode, "warm-reused", "the warm TypeScript program is used");
      } finally {
        await session.close();
      }
    });
  }
});
