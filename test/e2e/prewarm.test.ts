// A long-lived server's prewarm (issue 17): the programs its project's last checks asked for are built again before
// its first check, from what the host finds on disk — and the first check still answers as a cold tsc does.
import assert from "node:assert/strict";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { SignalintService } from "../../src/service/signalint.ts";
import { BUNDLE, call, connect, everyIssue, removeDir, scratchCopy, serviceIssues, structured, tempDir } from "../helpers.ts";
import { coldBuild } from "../helpers/cold-build.ts";

const dirs: string[] = [];
after(() => dirs.forEach(removeDir));

/** A copy of a TypeScript fixture, tsc its only engine, with a cache directory of its own. */
function project(fixture = "systemic-ts"): { root: string; cache: string } {
  const root = scratchCopy(fixture, "prewarm");
  const cache = tempDir("signalint-prewarm-cache-");
  dirs.push(root, cache);
  writeFileSync(join(root, "signalint.config.json"), JSON.stringify({ engines: { oxlint: false, biome: false, eslint: false, tsc: true } }));
  return { root, cache };
}

/** A service of the project; `delay`: a long-lived server's, prewarming after that many ms ("off": never). */
async function open(root: string, cache: string, delay?: string): Promise<SignalintService> {
  process.env.SIGNALINT_STATE_DIR = join(cache, "state");
  if (delay !== undefined) process.env.SIGNALINT_PREWARM_DELAY_MS = delay;
  try {
    return await SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root, cacheDir: join(cache, "c"), prewarm: delay !== undefined });
  } finally {
    delete process.env.SIGNALINT_STATE_DIR;
    delete process.env.SIGNALINT_PREWARM_DELAY_MS;
  }
}

/** The server's timers do not hold the process open (stdin does, in a server): hold it while waiting. */
async function held<T>(waiting: Promise<T>): Promise<T> {
  const hold = setInterval(() => {}, 1000);
  return await waiting.finally(() => clearInterval(hold));
}

/** A first service checks the project and stops: its state and its list of programs are on disk. */
async function checkedBefore(root: string, cache: string, kind = "project"): Promise<void> {
  const first = await open(root, cache);
  try {
    await first.check(["."], false);
    await held(first.warmSettled());
  } finally {
    await first.close();
  }
  const list = JSON.parse(readFileSync(join(cache, "c", "warm-programs.json"), "utf8"));
  assert.deepEqual(
    list.programs.map((program: { kind: string; configPath: string }) => [program.kind, program.configPath]),
    [[kind, join(root, "tsconfig.json")]],
  );
}

const tscKeys = (service: SignalintService, response: CheckResponse) =>
  serviceIssues(service, response)
    .filter((issue) => issue.engine === "tsc")
    .map((issue) => `${issue.file}:${issue.line} ${issue.rule}`)
    .sort();

async function coldKeys(root: string): Promise<string[]> {
  return (await coldBuild(root, "typescript"))
    .split("\n")
    .flatMap((line) => {
      const found = /^(.+)\((\d+),\d+\): error (TS\d+)/.exec(line);
      return found ? [`${found[1]}:${found[2]} ${found[3]}`] : [];
    })
    .sort();
}

const broken = (name: string) => `\nexport const ${name}: number = "not a number";\n`;

describe("prewarm", () => {
  it("builds the last checks' program before the first check: edits made while stopped and after the prewarm are in its answer", async () => {
    const { root, cache } = project();
    await checkedBefore(root, cache);
    appendFileSync(join(root, "src", "users.ts"), broken("whileStopped"));
    const service = await open(root, cache, "0");
    try {
      await held(service.prewarm.done);
      assert.equal(service.warmChecksAsked(), 0, "a prewarm is no check");
      appendFileSync(join(root, "src", "orders.ts"), broken("afterPrewarm"));
      const response = await service.check(["."], false);
      const keys = tscKeys(service, response);
      assert.deepEqual(keys, await coldKeys(root));
      assert.ok(keys.some((key) => key.startsWith("src/users.ts:")) && keys.some((key) => key.startsWith("src/orders.ts:")), keys.join("\n"));
      // Built by the prewarm, so this check re-checked only the edit after it (without a prewarm: warm-restored).
      assert.equal(service.lastTiming?.cache?.tsc?.mode, "warm-incremental");
    } finally {
      await service.close();
    }
  });

  it("builds a solution (tsc -b) the same way: an edit in a referenced project made while stopped is in the first answer", async () => {
    const { root, cache } = project("references");
    await checkedBefore(root, cache, "solution");
    appendFileSync(join(root, "packages", "core", "src", "index.ts"), broken("whileStopped"));
    const service = await open(root, cache, "0");
    try {
      await held(service.prewarm.done);
      const response = await service.check(["."], false);
      assert.deepEqual(tscKeys(service, response), await coldKeys(root));
      assert.ok(
        tscKeys(service, response).some((key) => key.startsWith("packages/core/src/index.ts:")),
        "the edit made while stopped is reported",
      );
      assert.equal(service.lastTiming?.cache?.tsc?.mode, "warm-reused", "the prewarm built the solution");
    } finally {
      await service.close();
    }
  });

  it("leaves a stored answer that holds to the first check, which answers from disk as without a prewarm", async () => {
    for (const [fixture, kind] of [
      ["systemic-ts", "project"],
      ["references", "solution"],
    ]) {
      const { root, cache } = project(fixture);
      await checkedBefore(root, cache, kind);
      const service = await open(root, cache, "0");
      try {
        await held(service.prewarm.done);
        const response = await service.check(["."], false);
        assert.equal(service.lastTiming?.cache?.tsc?.mode, "warm-restored", fixture);
        assert.deepEqual(tscKeys(service, response), await coldKeys(root));
        // The program is built after that answer, as without a prewarm: the next check reuses it. Asked from another
        // shell (one more variable): from this one the same request may be quiet now (the first answer kept, no
        // program asked), since a long-lived server watches the tree from its start.
        await held(service.warmSettled());
        await service.check(["."], false, { env: { ...(process.env as Record<string, string>), LINT_OTHER_SHELL: "1" } });
        assert.equal(service.lastTiming?.cache?.tsc?.mode, "warm-reused", fixture);
      } finally {
        await service.close();
      }
    }
  });

  it("a one-shot service (the CLI's check) builds nothing after an answer from disk; a later check still equals cold", async () => {
    const { root, cache } = project();
    await checkedBefore(root, cache);
    process.env.SIGNALINT_STATE_DIR = join(cache, "state");
    const service = await SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root, cacheDir: join(cache, "c"), oneShot: true }).finally(
      () => delete process.env.SIGNALINT_STATE_DIR,
    );
    try {
      await service.check(["."], false);
      assert.equal(service.lastTiming?.cache?.tsc?.mode, "warm-restored");
      await held(service.warmSettled());
      appendFileSync(join(root, "src", "users.ts"), broken("afterOneShot"));
      const response = await service.check(["."], false);
      // Without the build after the first answer (a long-lived service's warm-reused / warm-incremental), the
      // program is built now, on the stored build info.
      assert.equal(service.lastTiming?.cache?.tsc?.mode, "warm-restored");
      assert.deepEqual(tscKeys(service, response), await coldKeys(root));
    } finally {
      await service.close();
    }
  });

  it("is stopped by a check that comes first, never runs when off, and a damaged list builds nothing", async () => {
    const { root, cache } = project();
    await checkedBefore(root, cache);
    const list = join(cache, "c", "warm-programs.json");
    const good = readFileSync(list, "utf8");
    // Another project's config, there and valid: not this project's to build.
    const elsewhere = project().root;
    const typescriptDir = JSON.parse(good).programs[0].typescriptDir;
    const cases = [
      ["600000", null],
      ["off", null],
      ["0", "not json"],
      ["0", JSON.stringify({ format: 2, programs: [] })],
      ["0", JSON.stringify({ format: 1, programs: [{ kind: "project", typescriptDir, configPath: join(elsewhere, "tsconfig.json") }] })],
    ] as const;
    for (const [index, [delay, damage]] of cases.entries()) {
      if (damage !== null) writeFileSync(list, damage);
      appendFileSync(join(root, "src", "billing.ts"), broken(`edit${index}`));
      const service = await open(root, cache, delay);
      try {
        if (delay === "0") await held(service.prewarm.done);
        const response = await service.check(["."], false);
        await held(service.prewarm.done);
        // Nothing was built before the check: it built the program itself, on the persisted state.
        assert.equal(service.lastTiming?.cache?.tsc?.mode, "warm-restored", `${delay} ${damage}`);
        // The answer itself is the other tests' to compare (a cold tsc -b of the tree costs seconds): the last one here.
        if (index === cases.length - 1) assert.deepEqual(tscKeys(service, response), await coldKeys(root));
        assert.equal(readFileSync(list, "utf8"), good, "the check keeps the list again");
      } finally {
        await service.close();
      }
    }
    assert.ok(existsSync(list));
  });

  it("an MCP server prewarms after its start and says so on stderr; its first check reuses the program", async () => {
    const { root, cache } = project();
    const env = { SIGNALINT_CACHE_DIR: cache, SIGNALINT_STATE_DIR: join(cache, "state") };
    const first = await connect(root, env);
    try {
      structured(await call(first.client, "check_project"));
    } finally {
      await first.close();
    }
    appendFileSync(join(root, "src", "users.ts"), broken("whileStopped"));
    const second = await connect(root, { ...env, SIGNALINT_PREWARM_DELAY_MS: "0" });
    try {
      assert.match(
        await second.stderrMatching(/prewarmed \d+ TypeScript program/),
        /prewarmed 1 TypeScript program\(s\) in \d+ ms \(1 built, 0 left to a stored answer that holds\)/,
      );
      const response = structured<CheckResponse>(await call(second.client, "check_project"));
      const snapshot = structured<{ cache?: { tsc?: { mode: string } } }>(await call(second.client, "get_diagnostic_snapshot", { checkId: response.checkId }));
      assert.equal(snapshot.cache?.tsc?.mode, "warm-reused");
      const keys = (await everyIssue(second, response))
        .filter((issue) => issue.engine === "tsc")
        .map((issue) => `${issue.file}:${issue.line} ${issue.rule}`)
        .sort();
      assert.deepEqual(keys, await coldKeys(root));
    } finally {
      await second.close();
    }
    // Nothing changed since: the prewarm builds nothing and says so; the first check answers from disk.
    const third = await connect(root, { ...env, SIGNALINT_PREWARM_DELAY_MS: "0" });
    try {
      assert.match(await third.stderrMatching(/prewarmed \d+ TypeScript program/), /\(0 built, 1 left to a stored answer that holds\)/);
      const response = structured<CheckResponse>(await call(third.client, "check_project"));
      const snapshot = structured<{ cache?: { tsc?: { mode: string } } }>(await call(third.client, "get_diagnostic_snapshot", { checkId: response.checkId }));
      assert.equal(snapshot.cache?.tsc?.mode, "warm-restored");
    } finally {
      await third.close();
    }
  });
});
