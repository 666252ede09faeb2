import assert from "node:assert/strict";
import { join } from "node:path";
import { it } from "node:test";
import { WarmTsPool } from "../../src/typescript/warm-pool.ts";
import { fixture, REPO } from "../helpers.ts";

const TYPESCRIPT = join(REPO, "node_modules", "typescript");

async function until(predicate: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it("warm programs are built after a check, bounded by memory, and released on close", async () => {
  let rss = 0;
  const warnings: string[] = [];
  const pool = new WarmTsPool(
    REPO,
    (message) => warnings.push(message),
    () => rss,
    1000,
  );
  const first = join(fixture("systemic-ts"), "tsconfig.json");
  const second = join(fixture("sparse"), "tsconfig.json");
  try {
    assert.equal(pool.ready(TYPESCRIPT, first), null, "nothing is warm before a warm-up");
    pool.warmUpLater(TYPESCRIPT, first);
    pool.warmUpLater(TYPESCRIPT, second);
    pool.startPending();
    await until(() => pool.ready(TYPESCRIPT, first) !== null && pool.ready(TYPESCRIPT, second) !== null);
    const warm = pool.ready(TYPESCRIPT, first);
    assert.equal(warm?.kind, "ts5");
    assert.equal(warm?.program.check()?.info.reuse, "reused");
    rss = 5000; // over the limit: only the program in use stays
    assert.ok(pool.ready(TYPESCRIPT, first));
    assert.equal(pool.ready(TYPESCRIPT, second), null);
    assert.match(warnings.join("\n"), /over .* kept only the warm program in use/);
  } finally {
    pool.close();
  }
  assert.equal(pool.ready(TYPESCRIPT, first), null, "close releases everything");
});
