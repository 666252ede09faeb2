// The pnpm layout (test/layouts.ts) under Deno: the runtime adapter resolves and runs the same engines as Node.
import assert from "node:assert/strict";
import { cpSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { call, connect, enginesOf, fixture, removeDir, structured, tempDir } from "../helpers.ts";
import { ENGINES, pnpmLayout, versionOf } from "../layouts.ts";

describe("engine packages in pnpm, Windows and Yarn layouts", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("pnpm under Deno: the same engines, versions and findings as under Node", async () => {
    const project = join(tempDir("signalint-pnpm-deno-"), "app");
    dirs.push(dirname(project));
    cpSync(fixture("biome-app"), project, { recursive: true });
    pnpmLayout(project);
    const results: Omit<CheckResponse, "checkId">[] = [];
    const versions: CheckResponse["engines"][] = [];
    for (const runtimeName of ["node", "deno"] as const) {
      const session = await connect(project, {}, runtimeName);
      try {
        const { checkId, ...rest } = structured<CheckResponse>(await call(session.client, "check_project"));
        results.push(rest);
        versions.push(await enginesOf(session, checkId));
      } finally {
        await session.close();
      }
    }
    for (const { engine, pkg } of ENGINES) assert.deepEqual(versions[1]?.[engine], { status: "ok", version: versionOf(pkg) }, engine);
    assert.deepEqual(results[1], results[0]);
  });
});
