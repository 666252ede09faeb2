// Warm TypeScript programs live in host processes (src/typescript/warm-host.ts): a warm check can be cancelled and
// timed out (its host is killed), a host killed from outside is replaced, the first check answers from the program it
// builds, the server answers while a program builds, and a program over its memory bound is released.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import type { CheckEvent } from "../../src/service/job/check-events.ts";
import { SignalintService } from "../../src/service/signalint.ts";
import { WarmTsPool } from "../../src/typescript/warm-pool.ts";
import { BUNDLE, call, connect, REPO, removeDir, serviceIssues, structured, tempDir } from "../helpers.ts";
import { warmHosts } from "../helpers/processes.ts";

const TSC = join(REPO, "node_modules", "typescript", "bin", "tsc");

/**
 * A project of `files` modules in a chain (each imports its predecessor) that all import a hub's interface, two type
 * errors, tsc the only engine.
 */
function generated(files: number, config: Record<string, unknown> = {}): string {
  const dir = tempDir("signalint-warm-host-");
  mkdirSync(join(dir, "src"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(join(REPO, "node_modules", "typescript"), join(dir, "node_modules", "typescript"));
  writeFileSync(join(dir, "signalint.config.json"), JSON.stringify({ engines: { oxlint: false, biome: false, eslint: false, tsc: true }, ...config }));
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, skipLibCheck: true }, include: ["src"] }));
  writeFileSync(join(dir, "src", "hub.ts"), "export interface Shape {\n  id: number;\n}\n");
  for (let i = 0; i < files; i++) {
    const lines =
      i > 0 ? [`import { value${i - 1} } from "./m${i - 1}";`, `export const value${i}: number = value${i - 1} + 1;`] : ["export const value0: number = 0;"];
    lines.push('import type { Shape } from "./hub";', `export const shape${i}: Shape = { id: value${i} };`);
    for (let k = 0; k < 20; k++) lines.push(`export function helper${i}_${k}(x: number): number {`, `  return x * ${k} + value${i};`, "}");
    if (i === 1 || i === files - 1) lines.push(`export const broken${i}: string = value${i};`);
    writeFileSync(join(dir, "src", `m${i}.ts`), `${lines.join("\n")}\n`);
  }
  return dir;
}

/** A cold `tsc --noEmit` of the project: file:line rule per error. */
function coldTsc(dir: string): string[] {
  const result = spawnSync(process.execPath, [TSC, "--noEmit", "--pretty", "false", "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8" });
  return result.stdout
    .split("\n")
    .flatMap((line) => {
      const found = /^(.+)\((\d+),\d+\): error (TS\d+)/.exec(line);
      return found ? [`${found[1]}:${found[2]} ${found[3]}`] : [];
    })
    .sort();
}

function tscKeys(service: SignalintService, response: CheckResponse): string[] {
  return serviceIssues(service, response)
    .filter((issue) => issue.engine === "tsc")
    .map((issue) => `${issue.file}:${issue.line} ${issue.rule}`)
    .sort();
}

/** Poll /proc (there is no event for another process's death) until no warm host of ours is alive. */
async function hostsGone(): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (warmHosts().length) {
    if (Date.now() > deadline) assert.fail(`warm hosts still alive: ${warmHosts().join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const projects: string[] = [];
after(() => projects.forEach(removeDir));

async function open(dir: string): Promise<SignalintService> {
  projects.push(dir);
  process.env.SIGNALINT_STATE_DIR = join(dir, ".state");
  try {
    return await SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root: dir });
  } finally {
    delete process.env.SIGNALINT_STATE_DIR;
  }
}

describe("warm TypeScript hosts", { skip: process.platform !== "linux" && "finds hosts through /proc", timeout: 300_000 }, () => {
  it("the first check answers from the program it builds; a leaf edit right after is incremental and equals a cold run", async () => {
    const dir = generated(40);
    const service = await open(dir);
    try {
      const first = await service.check(["."], false);
      assert.equal(service.lastTiming?.cache?.tsc?.mode, "warm-full", "the first check built the warm program and answered from it");
      assert.deepEqual(tscKeys(service, first), coldTsc(dir));
      writeFileSync(join(dir, "src", "m39.ts"), readFileSync(join(dir, "src", "m39.ts"), "utf8").replace("x * 3 +", "x * 33 +"));
      const edited = await service.check(["src/m39.ts"], true);
      assert.equal(edited.cache?.tsc?.mode, "warm-incremental");
      assert.deepEqual(
        tscKeys(service, edited),
        coldTsc(dir).filter((key) => key.startsWith("src/m39.ts:")),
      );
    } finally {
      service.close();
    }
    await hostsGone();
  });

  it("hosts run with a bigger stack than V8's default (TypeScript's builder recursion on deep import chains)", async () => {
    // On bench:latency's 5,000-file project a hub edit overflowed the default stack in the builder's
    // handleDtsMayChangeOfFileAndExportsOfFile and fell back to the command line (1.33 of a cold tsc); with the bigger stack it stays warm.
    const dir = generated(5);
    const service = await open(dir);
    try {
      await service.check(["."], false);
      const running = warmHosts();
      assert.ok(running.length > 0, "a warm host is running");
      for (const pid of running)
        assert.ok(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").includes("--stack-size=3800"), `host ${pid} has the bigger stack`);
    } finally {
      service.close();
    }
    await hostsGone();
  });

  it("a cancelled warm check kills its host; the next check gets a new one and answers correctly", async () => {
    const dir = generated(600);
    const service = await open(dir);
    try {
      const controller = new AbortController();
      const onEvent = (event: CheckEvent) => {
        if (event.kind === "tsc-phase" && event.phase === "warm check") controller.abort();
      };
      await assert.rejects(service.check(["."], false, { signal: controller.signal, onEvent }), { name: "CheckCancelledError" });
      await hostsGone();
      assert.equal(service.store.latest(), undefined, "nothing recorded");
      const next = await service.check(["."], false);
      assert.equal(service.lastTiming?.cache?.tsc?.mode, "warm-full");
      assert.deepEqual(tscKeys(service, next), coldTsc(dir));
    } finally {
      service.close();
    }
  });

  it("a warm check over the tsc timeout is killed and reported as a timeout; the next check rebuilds", async () => {
    const dir = generated(1500, { timeoutsMs: { tsc: 100 } });
    const service = await open(dir);
    try {
      const timedOut = await service.check(["."], false);
      assert.equal(timedOut.engines.tsc.status, "error");
      assert.equal(timedOut.engines.tsc.code, "timeout");
      assert.match(timedOut.engines.tsc.message ?? "", /did not complete within 0\.1s/);
      await hostsGone();
      writeFileSync(join(dir, "signalint.config.json"), JSON.stringify({ engines: { oxlint: false, biome: false, eslint: false, tsc: true } }));
      const next = await service.check(["."], false);
      assert.equal(service.lastTiming?.cache?.tsc?.mode, "warm-full");
      assert.deepEqual(tscKeys(service, next), coldTsc(dir));
    } finally {
      service.close();
    }
  });

  it("a host killed from outside is replaced: the next checks answer correctly, and warm again", async () => {
    const dir = generated(40);
    const service = await open(dir);
    try {
      await service.check(["."], false);
      const [host] = warmHosts();
      assert.ok(host, "a warm host runs");
      process.kill(host, "SIGKILL");
      writeFileSync(join(dir, "src", "m10.ts"), readFileSync(join(dir, "src", "m10.ts"), "utf8").replace("value9 + 1", `"ten"`));
      const after = await service.check(["src/m10.ts"], true);
      // One cold run of the edited tree answers for both checks (nothing changes between them).
      const cold = coldTsc(dir);
      assert.deepEqual(
        tscKeys(service, after),
        cold.filter((key) => key.startsWith("src/m10.ts:")),
      );
      assert.ok(tscKeys(service, after).length > 0, "the edit's error is reported");
      const again = await service.check(["."], false);
      assert.deepEqual(tscKeys(service, again), cold);
      assert.match(service.lastTiming?.cache?.tsc?.mode ?? "", /^warm-/, "a new host serves");
      assert.ok(!warmHosts().includes(host), "the killed host is not reused");
    } finally {
      service.close();
    }
  });

  it("a program over warmTypeScriptMemoryMB is released: the answer stands, later checks use the command line", async () => {
    const dir = generated(20, { warmTypeScriptMemoryMB: 64 });
    const warnings: string[] = [];
    projects.push(dir);
    process.env.SIGNALINT_STATE_DIR = join(dir, ".state");
    const runtime = { ...createNodeRuntime({ selfScript: BUNDLE }), writeStderr: (text: string) => void warnings.push(text) };
    const service = await SignalintService.create(runtime, { root: dir }).finally(() => delete process.env.SIGNALINT_STATE_DIR);
    try {
      const first = await service.check(["."], false);
      // The tree does not change: one cold run answers for both checks.
      const cold = coldTsc(dir);
      assert.deepEqual(tscKeys(service, first), cold);
      assert.match(warnings.join(""), /uses \d+ MB, over 64 MB: released, tsc runs cold/);
      await hostsGone();
      const second = await service.check(["."], false);
      assert.equal(service.lastTiming?.cache?.tsc?.mode, "cli");
      assert.deepEqual(tscKeys(service, second), cold);
      // The release is part of the answer, not only a line on stderr.
      assert.equal(second.engines.tsc.status, "ok");
      assert.match(second.engines.tsc.message ?? "", /command line: .*uses \d+ MB, over 64 MB: released/);
    } finally {
      service.close();
    }
  });

  it("several tsconfigs run in parallel; one over the timeout leaves the others' findings (engine_partial)", async () => {
    const dir = tempDir("signalint-partial-");
    projects.push(dir);
    const big = generated(3000);
    projects.push(big);
    const config = (timeout?: number) =>
      writeFileSync(
        join(dir, "signalint.config.json"),
        JSON.stringify({ engines: { oxlint: false, biome: false, eslint: false, tsc: true }, ...(timeout ? { timeoutsMs: { tsc: timeout } } : {}) }),
      );
    // A monorepo without a root tsconfig. First only a small package, whose program the first check makes warm.
    mkdirSync(join(dir, "packages", "small", "src"), { recursive: true });
    cpSync(join(big, "tsconfig.json"), join(dir, "packages", "small", "tsconfig.json"));
    writeFileSync(join(dir, "packages", "small", "src", "index.ts"), 'export const small: number = "small";\n');
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(join(REPO, "node_modules", "typescript"), join(dir, "node_modules", "typescript"));
    config();
    const session = await connect(dir);
    try {
      assert.equal(structured<CheckResponse>(await call(session.client, "check_project")).engines.tsc.status, "ok");
      // Then a big package that cannot be checked within the timeout; the small one answers from its warm program.
      cpSync(join(big, "src"), join(dir, "packages", "big", "src"), { recursive: true });
      cpSync(join(big, "tsconfig.json"), join(dir, "packages", "big", "tsconfig.json"));
      config(2000);
      const response = structured<CheckResponse>(await call(session.client, "check_project"));
      assert.equal(response.engines.tsc.code, "engine_partial", JSON.stringify(response.engines.tsc));
      assert.match(response.engines.tsc.message ?? "", /packages\/big\/tsconfig\.json/);
      assert.match(response.engines.tsc.message ?? "", /did not complete within 2s/);
      assert.deepEqual(
        (response.remainingIssues ?? []).map((issue) => `${issue.file} ${issue.rule}`),
        ["packages/small/src/index.ts TS2322"],
      );
    } finally {
      await session.close();
    }
  });

  it("the server answers ping while a warm check runs (a hub edit re-checks every importer)", async () => {
    const dir = generated(800, { engines: { oxlint: false, biome: false, eslint: false, tsc: true } });
    projects.push(dir);
    const session = await connect(dir);
    try {
      structured(await call(session.client, "check_project"));
      writeFileSync(join(dir, "src", "hub.ts"), "export interface Shape {\n  id: number;\n  tag?: string;\n}\n");
      const order: string[] = [];
      let pinging: Promise<unknown> | undefined;
      const checking = session.client
        .callTool({ name: "check_files", arguments: { files: ["src/hub.ts"] } }, undefined, {
          onprogress: ({ message }) => {
            // Asked once the warm check has begun: answered while the host works, before the check's result.
            if (!pinging && /^tsc: warm check/.test(message ?? "")) pinging = call(session.client, "ping").then(() => order.push("ping"));
          },
        })
        .then((result) => {
          order.push("check");
          return result;
        });
      const result = structured<CheckResponse>((await checking) as Parameters<typeof structured>[0]);
      await pinging;
      assert.equal(result.cache?.tsc?.mode, "warm-incremental");
      assert.ok(pinging, "the warm check was reported");
      assert.deepEqual(order, ["ping", "check"]);
    } finally {
      await session.close();
    }
  });
  it("closing the pool while a named-files answer's re-check runs says nothing of a host that exited", async () => {
    const dir = generated(40);
    projects.push(dir);
    const warnings: string[] = [];
    const pool = new WarmTsPool(createNodeRuntime({ selfScript: BUNDLE }), dir, (message) => warnings.push(message));
    const hub = join(dir, "src", "hub.ts");
    const request = {
      kind: "project" as const,
      typescriptDir: join(REPO, "node_modules", "typescript"),
      configPath: join(dir, "tsconfig.json"),
      configFile: "tsconfig.json",
      timeoutMs: 120_000,
      memoryLimitBytes: 2048 * 1024 ** 2,
      toRelative: (path: string) => (path.startsWith(`${dir}/`) ? path.slice(dir.length + 1) : null),
    };
    try {
      assert.equal((await pool.check(request)).status, "ok");
      writeFileSync(hub, "export interface Shape {\n  id: string;\n}\n");
      const named = await pool.check({ ...request, first: [hub] });
      assert.equal(named.status === "ok" && named.pending, 40, JSON.stringify(named).slice(0, 500));
      // The whole re-check is sent to the host at once; the pool closes before the host can answer it.
      const rest = pool.check(request);
      pool.close();
      assert.deepEqual(await rest, { status: "unavailable" });
      assert.deepEqual(warnings, [], "the pool was closed: no host of it failed");
    } finally {
      pool.close();
    }
    await hostsGone();
  });
});
