// Temporary state and cache directories carry their owner's pid; making one removes those of owners that are gone
// (a killed process cannot remove its own), and nothing else.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { ownedTempDir } from "../../src/service/project/temp-dirs.ts";
import { removeDir, tempDir } from "../helpers.ts";

it("a new temporary directory removes those of dead owners only: live owners, no owner and other kinds stay", async () => {
  const tmp = tempDir("signalint-tmpdir-");
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = tmp;
  // A process that ran and exited: its pid names nobody now. One that runs: its directory is in use.
  const dead = spawnSync(process.execPath, ["-e", "0"]).pid;
  const live = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], { stdio: "ignore" });
  const made = (name: string, owner?: number) => {
    const dir = join(tmp, name);
    mkdirSync(join(dir, "tsc-state"), { recursive: true });
    writeFileSync(join(dir, "tsc-state", "x.state"), "kept data");
    if (owner !== undefined) writeFileSync(join(dir, ".signalint-owner"), `${owner}\n`);
    return dir;
  };
  const killed = made("signalint-state-killed", dead);
  const running = made("signalint-state-running", live.pid);
  const unowned = made("signalint-state-unowned");
  const otherKind = made("signalint-cache-killed", dead);
  try {
    const runtime = createNodeRuntime();
    const dir = await ownedTempDir(runtime, "signalint-state-");
    assert.ok(dir.startsWith(join(tmp, "signalint-state-")), dir);
    assert.equal(readFileSync(join(dir, ".signalint-owner"), "utf8").trim(), String(process.pid));
    assert.equal(existsSync(killed), false, "the directory of a dead owner is removed");
    for (const kept of [running, unowned, otherKind]) assert.equal(existsSync(join(kept, "tsc-state", "x.state")), true, kept);
  } finally {
    live.kill();
    await once(live, "exit");
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    removeDir(tmp);
  }
});
