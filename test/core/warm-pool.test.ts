import assert from "node:assert/strict";
import { join } from "node:path";
import { it } from "node:test";
import { WarmTsPool } from "../../src/typescript/warm-pool.ts";
import { WarmTsSolution } from "../../src/typescript/warm-solution.ts";
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

it("a config with references gets a warm solution, and its packages' own configs are served by views of it", async () => {
  const pool = new WarmTsPool(REPO);
  const root = join(fixture("references"), "tsconfig.json");
  const app = join(fixture("references"), "packages", "app", "tsconfig.json");
  const core = join(fixture("references"), "packages", "core", "tsconfig.json");
  try {
    assert.equal(pool.ready(TYPESCRIPT, app), null, "no solution has built app yet");
    pool.warmUpLater(TYPESCRIPT, root);
    pool.startPending();
    // The warm-up timer does not hold the process open (stdin does, in a server): hold it while waiting.
    const hold = setInterval(() => {}, 1000);
    await pool.settled().finally(() => clearInterval(hold));
    const solution = pool.ready(TYPESCRIPT, root);
    assert.ok(solution?.program instanceof WarmTsSolution, "the references config is a warm solution");
    const view = pool.ready(TYPESCRIPT, app);
    assert.ok(view?.program instanceof WarmTsSolution && view.program !== solution.program, "app's own build is a view");
    const checked = view.program.check();
    assert.equal(checked?.info.reuse, "reused", "the view reuses the projects the solution built");
    assert.deepEqual(
      checked?.diagnostics.map((d) => `${d.file?.fileName.split("/packages/")[1]} TS${d.code}`),
      ["core/src/index.ts TS2322", "app/src/main.ts TS2322", "app/src/main.ts TS2322", "app/src/main.ts TS2769", "app/src/main.ts TS2345"],
      "tsc -b packages/app: core's error, then app's own",
    );
    assert.equal(pool.ready(TYPESCRIPT, core), null, "a package without references is a plain program, not a view");
  } finally {
    pool.close();
  }
});
