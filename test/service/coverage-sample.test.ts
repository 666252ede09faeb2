// A coverage note's sample: spread over the folders of the files it names, so a crowded folder does not hide the rest.
import assert from "node:assert/strict";
import { it } from "node:test";
import { spreadSample } from "../../src/service/check/coverage.ts";

it("names the first file of each folder, the most crowded first, before a second file of any", () => {
  const docs = Array.from({ length: 29 }, (_, i) => `docs/examples/e${String(i).padStart(2, "0")}.ts`);
  const files = [...docs, "test/benchmarks/a.ts", "test/benchmarks/b.ts", "website/src/page.tsx", "website/babel.config.js", "vitest.config.mts"];
  assert.deepEqual(spreadSample(files, 5), [
    "docs/examples/e00.ts",
    "test/benchmarks/a.ts",
    "vitest.config.mts",
    "website/babel.config.js",
    "website/src/page.tsx",
  ]);
  // Fewer folders than the sample's size: the crowded folder's next files fill it, in order.
  assert.deepEqual(spreadSample([...docs.slice(0, 4), "scripts/x.ts"], 3), ["docs/examples/e00.ts", "docs/examples/e01.ts", "scripts/x.ts"]);
  assert.deepEqual(spreadSample(["a.ts"], 5), ["a.ts"]);
  assert.deepEqual(spreadSample([], 5), []);
  // Windows separators: the folder is the same.
  assert.deepEqual(spreadSample(["src\\a\\x.ts", "src\\a\\y.ts", "lib\\z.ts"], 2), ["lib\\z.ts", "src\\a\\x.ts"]);
});
