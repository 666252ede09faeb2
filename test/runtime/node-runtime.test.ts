import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { FsError } from "../../src/core/errors.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { gone, removeDir, tempDir } from "../helpers.ts";

const runtime = createNodeRuntime();

const node = process.execPath;
const options = { cwd: process.cwd(), timeoutMs: 10_000, maxOutputBytes: 10 * 1024 * 1024 };

describe("node runtime", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  it("returns exit code and both streams as data; a non-zero exit does not throw", async () => {
    const result = await runtime.spawn(node, ["-e", "process.stdout.write('out'); process.stderr.write('err'); process.exit(3)"], options);
    assert.equal(result.exitCode, 3);
    assert.equal(result.stdout, "out");
    assert.equal(result.stderr, "err");
    assert.equal(result.timedOut, false);
    assert.equal(result.outputExceeded, false);
  });

  it("reads stdout and stderr concurrently (no deadlock on a full stderr pipe)", async () => {
    const script = "process.stderr.write('e'.repeat(4*1024*1024)); process.stdout.write('done')";
    const result = await runtime.spawn(node, ["-e", script], options);
    assert.equal(result.stdout, "done");
    assert.equal(result.stderr.length, 4 * 1024 * 1024);
  });

  it("kills the whole process tree on timeout", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const pidFile = join(dir, "pid");
    const script = `const c=require('child_process').spawn(process.execPath,['-e','setInterval(()=>{},1000)'],{stdio:'ignore'});require('fs').writeFileSync(${JSON.stringify(pidFile)},String(c.pid));setInterval(()=>{},1000)`;
    const started = Date.now();
    const result = await runtime.spawn(node, ["-e", script], { ...options, timeoutMs: 800 });
    assert.equal(result.timedOut, true);
    assert.ok(Date.now() - started < 5000);
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    assert.ok(await gone(grandchild, 5000), "grandchild was killed");
  });

  it("kills an engine that exceeds the output limit", async () => {
    const result = await runtime.spawn(node, ["-e", "setInterval(()=>process.stdout.write('x'.repeat(65536)),1)"], { ...options, maxOutputBytes: 1024 * 1024 });
    assert.equal(result.outputExceeded, true);
  });

  it("reports a command that cannot start as spawnError", async () => {
    const result = await runtime.spawn("/nonexistent/engine", [], options);
    assert.ok(result.spawnError);
    assert.equal(result.exitCode, null);
  });

  it("writes files atomically and stats them", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const path = join(dir, "a.json");
    await runtime.writeFileAtomic(path, "one");
    await runtime.writeFileAtomic(path, "two");
    assert.equal(await runtime.readText(path), "two");
    assert.equal((await runtime.stat(path))?.isFile, true);
    assert.equal(await runtime.stat(join(dir, "missing")), null);
    assert.deepEqual(
      (await runtime.readDir(dir)).map((entry) => entry.name),
      ["a.json"],
    );
    assert.equal(runtime.sha256("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("creates a file exclusively: false when one is there; any other failure as an FsError, like every file call", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const lock = join(dir, "owner.lock");
    assert.equal(await runtime.createExclusive(lock, "1"), true);
    assert.equal(await runtime.createExclusive(lock, "2"), false);
    assert.equal(readFileSync(lock, "utf8"), "1");
    await assert.rejects(runtime.createExclusive(join(dir, "gone", "owner.lock"), "1"), (error) => error instanceof FsError && error.kind === "not_found");
  });
});
