// The warm host's end of its channel (runtime/self-node.ts, frames of core/framing.ts): a reply larger than a pipe's buffer must reach the server
// whole before the host goes on with work that does not yield (a program built after an answer from disk took seconds
// and held the rest of a 234 KB reply back until it was done).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { it } from "node:test";
import { build } from "esbuild";
import { frameReader } from "../../src/core/framing.ts";
import { REPO, removeDir, tempDir } from "../helpers.ts";

it("a sent frame larger than a pipe's buffer reaches the parent whole, though the child never yields after the send", { timeout: 120_000 }, async () => {
  const dir = tempDir("signalint-self-channel-");
  const entry = join(dir, "child.mjs");
  const size = 4 * 1024 * 1024;
  // The real channel in a real process: after the send it spins forever, as a long synchronous build would.
  const contents = [
    `import { selfChannelNode } from ${JSON.stringify(join(REPO, "src", "runtime", "self-node.ts"))};`,
    `import { encodeFrame } from ${JSON.stringify(join(REPO, "src", "core", "framing.ts"))};`,
    "const channel = selfChannelNode();",
    `await channel.send(encodeFrame("x".repeat(${size})));`,
    "for (;;) {}",
  ].join("\n");
  await build({ stdin: { contents, resolveDir: REPO, loader: "ts" }, bundle: true, platform: "node", format: "esm", outfile: entry, logLevel: "warning" });
  const child = spawn(process.execPath, [entry], { stdio: ["pipe", "pipe", "inherit"] });
  try {
    const messages: unknown[] = [];
    await new Promise<void>((resolve) =>
      child.stdout.on(
        "data",
        frameReader((message) => (messages.push(message), resolve())),
      ),
    );
    assert.deepEqual(messages, ["x".repeat(size)], "the whole frame");
  } finally {
    child.kill("SIGKILL");
    removeDir(dir);
  }
});
