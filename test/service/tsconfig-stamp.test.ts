// A tsconfig listing's stamp (service/freshness/tsconfig-stamp.ts): it moves with the config and with every config it
// extends by relative path (a chain, an array), and stays put when nothing they are made of changed.
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, it } from "node:test";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { tsconfigStamp } from "../../src/service/freshness/tsconfig-stamp.ts";
import { BUNDLE, removeDir, tempDir } from "../helpers.ts";

const runtime = createNodeRuntime({ selfScript: BUNDLE });
const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

it("the stamp changes when the config or a config it extends (through a chain or an array) changes size, and only then", async () => {
  const root = tempDir("signalint-tsconfig-stamp-");
  dirs.push(root);
  mkdirSync(join(root, "configs"));
  writeFileSync(join(root, "configs", "base.json"), '{ "compilerOptions": { "strict": true } }\n');
  writeFileSync(join(root, "configs", "middle.json"), '{ "extends": "./base.json" }\n');
  writeFileSync(join(root, "other.json"), "{}\n");
  // A package's config (not stamped) and a malformed array entry stand beside the relative ones.
  writeFileSync(join(root, "tsconfig.json"), '// comments are JSONC\n{ "extends": ["./configs/middle", "@tsconfig/node20", 7, "./other.json"] }\n');
  const config = join(root, "tsconfig.json");
  const first = await tsconfigStamp(runtime, config);
  assert.equal(await tsconfigStamp(runtime, config), first, "nothing changed: the same stamp");
  for (const path of ["tsconfig.json", "configs/middle.json", "configs/base.json", "other.json"]) assert.ok(first.includes(join(root, path)), path);
  let previous = first;
  for (const [path, text] of [
    ["configs/base.json", '{ "compilerOptions": { "strict": false } }\n'],
    ["other.json", '{ "include": ["src"] }\n'],
    ["tsconfig.json", '{ "extends": ["./configs/middle", "./other.json"] }\n'],
  ] as const) {
    writeFileSync(join(root, path), text);
    const next = await tsconfigStamp(runtime, config);
    assert.notEqual(next, previous, `an edit of ${path} changes the stamp`);
    previous = next;
  }
});

it("a missing config is stamped as missing, and its appearance changes the stamp", async () => {
  const root = tempDir("signalint-tsconfig-stamp-");
  dirs.push(root);
  writeFileSync(join(root, "tsconfig.json"), '{ "extends": "./base" }\n');
  const config = join(root, "tsconfig.json");
  const missing = await tsconfigStamp(runtime, config);
  assert.match(missing, new RegExp(`${join(root, "base.json").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:-1:-1`));
  writeFileSync(join(root, "base.json"), "{}\n");
  assert.notEqual(await tsconfigStamp(runtime, config), missing);
});
