import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, it } from "node:test";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { ContentHasher } from "../../src/service/freshness/content-hasher.ts";
import { configInputsHash } from "../../src/service/lint/config-inputs.ts";
import { BUNDLE, removeDir, tempDir } from "../helpers.ts";

const runtime = createNodeRuntime({ selfScript: BUNDLE });
const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

it("an ESLint config's absolute and file: URL imports outside the root are configuration inputs (and seen by the watchless hasher)", async () => {
  const root = tempDir("signalint-config-inputs-");
  const outside = tempDir("signalint-config-outside-");
  dirs.push(root, outside);
  mkdirSync(join(root, "src"));
  const byPath = join(outside, "rules.mjs");
  const byUrl = join(outside, "more.mjs");
  writeFileSync(byPath, 'export const rules = { "no-debugger": "error" };\n');
  writeFileSync(byUrl, "export const more = {};\n");
  writeFileSync(
    join(root, "eslint.config.mjs"),
    `import { rules } from "${byPath}";\nimport { more } from "${pathToFileURL(byUrl).href}";\nexport default [{ rules: { ...rules, ...more } }];\n`,
  );
  const hash = () => configInputsHash(runtime, new ContentHasher(runtime, undefined, root), { engine: "eslint", root, dirs: [join(root, "src")] });
  const before = await hash();
  writeFileSync(byPath, 'export const rules = { "no-debugger": "off" };\n');
  const afterPath = await hash();
  assert.notEqual(afterPath, before, "an edit of the absolute import changes the inputs");
  writeFileSync(byUrl, 'export const more = { "no-console": "error" };\n');
  assert.notEqual(await hash(), afterPath, "an edit of the file: URL import changes the inputs");
  const hasher = new ContentHasher(runtime, undefined, root);
  await configInputsHash(runtime, hasher, { engine: "eslint", root, dirs: [join(root, "src")] });
  assert.deepEqual([...(hasher.external() ?? [])].sort(), [byUrl, byPath].sort(), "a quiet check stamps both");
});
