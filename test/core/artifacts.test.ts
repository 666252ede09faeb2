import assert from "node:assert/strict";
import { readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { ArtifactStore } from "../../src/service/history/artifacts.ts";
import { removeDir, tempDir } from "../helpers.ts";

it("artifacts read back in chunks, and unknown or expired ids get distinct errors", async () => {
  const dir = tempDir();
  try {
    const store = new ArtifactStore(createNodeRuntime(), dir, 60_000);
    const json = JSON.stringify({ issues: Array.from({ length: 50 }, (_, i) => ({ n: i, text: "é ✓ multi-byte" })) });
    const id = await store.save(json);
    assert.ok(id);
    const parts: Buffer[] = [];
    for (let offset: number | null = 0; offset !== null; ) {
      const chunk = await store.read(id, offset, 1000);
      parts.push(Buffer.from(chunk.data, "base64"));
      offset = chunk.nextOffset;
    }
    assert.equal(Buffer.concat(parts).toString("utf8"), json, "chunks split bytes, not characters, and rejoin exactly");
    await assert.rejects(store.read("a0123456789abcdef01234567", 0, 10), { code: "artifact_not_found" });
    await assert.rejects(store.read("../../etc/passwd", 0, 10), { code: "artifact_not_found" });
    const old = (Date.now() - 120_000) / 1000;
    utimesSync(join(dir, "artifacts", `${id}.artifact`), old, old);
    await assert.rejects(store.read(id, 0, 10), { code: "artifact_expired" });
    await assert.rejects(store.read(id, 0, 10), { code: "artifact_not_found" }, "an expired artifact is deleted");
  } finally {
    removeDir(dir);
  }
});

it("a damaged artifact answers artifact_corrupt, never its bad data", async () => {
  const dir = tempDir();
  try {
    const store = new ArtifactStore(createNodeRuntime(), dir, 60_000);
    const id = await store.save(JSON.stringify({ issues: [1, 2, 3] }));
    const path = join(dir, "artifacts", `${id}.artifact`);
    const original = readFileSync(path, "utf8");
    writeFileSync(path, original.replace("[1,2,3]", "[1,2,4]"));
    await assert.rejects(store.read(id, 0, 1000), { code: "artifact_corrupt" });
    writeFileSync(path, original.slice(0, -3));
    await assert.rejects(store.read(id, 0, 1000), { code: "artifact_corrupt" }, "truncated");
    writeFileSync(path, JSON.stringify({ issues: [1, 2, 3] }));
    await assert.rejects(store.read(id, 0, 1000), { code: "artifact_corrupt" }, "no checksum header");
  } finally {
    removeDir(dir);
  }
});

it("an artifact that cannot be written is artifact_write_failed, never a null id", async () => {
  const dir = tempDir();
  try {
    writeFileSync(join(dir, "artifacts"), "a file where the directory should be");
    const store = new ArtifactStore(createNodeRuntime(), dir, 60_000);
    await assert.rejects(store.save("{}"), { code: "artifact_write_failed" });
  } finally {
    removeDir(dir);
  }
});
