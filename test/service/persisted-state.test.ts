// Persisted TypeScript state (issue 17) on real files: what a header vouches for, what is refused, and the size bound.
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { COMPILE_CACHE_DIR, PersistedBuildInfo, type PersistTarget } from "../../src/typescript/persisted-state.ts";
import { loadTypeScript, WarmTsProgram } from "../../src/typescript/warm-program.ts";
import { answer, lastingRecord, recordHolds } from "../../src/typescript/warm-state7.ts";
import { REPO, removeDir, tempDir } from "../helpers.ts";

const target = (dir: string, extra: Partial<PersistTarget> = {}): PersistTarget => ({ dir, evictBase: null, maxBytes: 1024 ** 2, version: "1.0.0", ...extra });

/** The one state file of a project cache directory. */
function stateFile(dir: string): string {
  const names = readdirSync(join(dir, "tsc-state")).filter((name) => name.endsWith(".state"));
  assert.equal(names.length, 1);
  return join(dir, "tsc-state", names[0] as string);
}

/** A project directory and a cache directory for one program's test, removed afterwards. */
function withProgramDir(body: (dirs: { root: string; cache: string; ts: NonNullable<ReturnType<typeof loadTypeScript>>; config: string }) => void): void {
  const root = tempDir("signalint-persist-project-");
  const cache = tempDir("signalint-persist-cache-");
  try {
    const ts = loadTypeScript(join(REPO, "node_modules", "typescript"));
    assert.ok(ts);
    body({ root, cache, ts, config: join(root, "tsconfig.json") });
  } finally {
    removeDir(root);
    removeDir(cache);
  }
}

describe("persisted TypeScript state", () => {
  it("reads back what it wrote for the same key and versions; another key is silently not this program's", () => {
    const dir = tempDir("signalint-persist-");
    try {
      new PersistedBuildInfo(target(dir), "project\0/p/tsconfig.json", "5.9.3").save("key-a", '{"version":"5.9.3"}');
      const reader = new PersistedBuildInfo(target(dir), "project\0/p/tsconfig.json", "5.9.3");
      assert.deepEqual(reader.load("key-a"), { text: '{"version":"5.9.3"}' });
      assert.deepEqual(reader.load("key-b"), { text: null });
      assert.deepEqual(
        readdirSync(join(dir, "tsc-state")).filter((name) => name.endsWith(".tmp")),
        [],
        "no temp file left",
      );
    } finally {
      removeDir(dir);
    }
  });

  it("refuses damaged and truncated state with a notice, and another version's silently, never its payload", () => {
    const dir = tempDir("signalint-persist-");
    try {
      const payload = `{"files":[${'"a",'.repeat(200)}"b"]}`;
      new PersistedBuildInfo(target(dir), "cfg", "5.9.3").save("k", payload);
      const file = stateFile(dir);
      const whole = readFileSync(file, "utf8");
      const cases: [string, string, RegExp][] = [
        ["truncated", whole.slice(0, whole.length - 10), /truncated/],
        ["a byte changed", whole.replace('"a",', '"c",'), /checksum mismatch/],
        ["garbage", "garbage", /damaged header/],
      ];
      for (const [label, text, notice] of cases) {
        writeFileSync(file, text);
        const loaded = new PersistedBuildInfo(target(dir), "cfg", "5.9.3").load("k");
        assert.equal(loaded.text, null, label);
        assert.match(loaded.notice ?? "", notice, label);
      }
      // Another version's state (an upgrade) is not this program's: ignored without a notice, as tsc does.
      writeFileSync(file, whole.replace('"signalint":"1.0.0"', '"signalint":"0.9.0"'));
      assert.deepEqual(new PersistedBuildInfo(target(dir), "cfg", "5.9.3").load("k"), { text: null });
      writeFileSync(file, whole);
      assert.deepEqual(new PersistedBuildInfo(target(dir), "cfg", "6.0.3").load("k"), { text: null });
    } finally {
      removeDir(dir);
    }
  });

  it("keeps every project's state under the bound, evicting the least recently used projects first", () => {
    const base = tempDir("signalint-persist-base-");
    try {
      const projects = ["a", "b", "c"].map((name) => join(base, name));
      const bound = { evictBase: base, maxBytes: 2500 };
      const payload = "x".repeat(1000);
      // a and b written long ago (a the oldest), then c: three projects of ~1,100 bytes do not fit in 2,500.
      for (const [i, dir] of projects.slice(0, 2).entries()) {
        mkdirSync(dir);
        new PersistedBuildInfo(target(dir, bound), "cfg", "5.9.3").save("k", payload);
        const old = new Date(Date.now() - (10 - i) * 60_000);
        utimesSync(stateFile(dir), old, old);
      }
      mkdirSync(projects[2] as string);
      new PersistedBuildInfo(target(projects[2] as string, bound), "cfg", "5.9.3").save("k", payload);
      assert.deepEqual(
        projects.map((dir) => existsSync(join(dir, "tsc-state")) && readdirSync(join(dir, "tsc-state")).length > 0),
        [false, true, true],
      );
    } finally {
      removeDir(base);
    }
  });

  it("counts Node's compiled code of a project in the bound and removes it with the project's state", () => {
    const base = tempDir("signalint-persist-base-");
    try {
      const [old, live] = ["a", "b"].map((name) => join(base, name)) as [string, string];
      const bound = { evictBase: base, maxBytes: 2500 };
      mkdirSync(old);
      new PersistedBuildInfo(target(old, bound), "cfg", "5.9.3").save("k", "x".repeat(500));
      const long = new Date(Date.now() - 600_000);
      utimesSync(stateFile(old), long, long);
      const compiled = join(old, COMPILE_CACHE_DIR, "v26.10.0-x64");
      mkdirSync(compiled, { recursive: true });
      writeFileSync(join(compiled, "entry.cache"), "c".repeat(1500));
      mkdirSync(live);
      // 600 + 1,500 + 600 bytes: over the bound only with the old project's compiled code counted.
      new PersistedBuildInfo(target(live, bound), "cfg", "5.9.3").save("k", "y".repeat(500));
      assert.deepEqual(readdirSync(join(old, "tsc-state")), [], "the least recently used project goes");
      assert.deepEqual(readdirSync(compiled), [], "with its compiled code");
      assert.ok(existsSync(stateFile(live)));
    } finally {
      removeDir(base);
    }
  });

  it("a writer whose state grows past what its last eviction left evicts again", () => {
    const base = tempDir("signalint-persist-base-");
    try {
      const [old, live] = ["a", "b"].map((name) => join(base, name)) as [string, string];
      const bound = { evictBase: base, maxBytes: 2500 };
      mkdirSync(old);
      new PersistedBuildInfo(target(old, bound), "cfg", "5.9.3").save("k", "x".repeat(1000));
      const long = new Date(Date.now() - 600_000);
      utimesSync(stateFile(old), long, long);
      mkdirSync(live);
      const writer = new PersistedBuildInfo(target(live, bound), "cfg", "5.9.3");
      writer.save("k", "y".repeat(500));
      assert.ok(existsSync(stateFile(old)), "both fit");
      writer.save("k", "z".repeat(1500));
      assert.deepEqual(readdirSync(join(old, "tsc-state")), [], "the grown state no longer fits with the old project's");
    } finally {
      removeDir(base);
    }
  });

  it("a config with `incremental: false` is persisted too (outside the tree), with the answers of the user's own tsc", () => {
    withProgramDir(({ root, cache, ts, config }) => {
      writeFileSync(config, JSON.stringify({ compilerOptions: { strict: true, noEmit: true, incremental: false }, include: ["*.ts"] }));
      writeFileSync(join(root, "a.ts"), "export const a: string = 1;\n");
      writeFileSync(join(root, "b.ts"), 'import { a } from "./a";\nexport const b: number = a.length;\n');
      const raw = () => {
        const run = spawnSync(process.execPath, [join(REPO, "node_modules", "typescript", "bin", "tsc"), "--pretty", "false", "-p", config], {
          cwd: root,
          encoding: "utf8",
        });
        return [...run.stdout.matchAll(/\((\d+),(\d+)\): error (TS\d+)/g)].map((match) => `${match[1]}:${match[2]} ${match[3]}`);
      };
      const codes = (program: WarmTsProgram) =>
        (program.check(null)?.diagnostics ?? []).map((diagnostic) => {
          const at = ts.getLineAndCharacterOfPosition(diagnostic.file as NonNullable<typeof diagnostic.file>, diagnostic.start ?? 0);
          return `${at.line + 1}:${at.character + 1} TS${diagnostic.code}`;
        });
      const persist = { target: target(cache), compiler: ts.version };
      // One cold run answers for the tree until a.ts is edited (the state goes to the cache, nothing into the tree).
      const cold = raw();
      const first = new WarmTsProgram(ts, config, persist);
      assert.deepEqual(codes(first), cold);
      first.persist({ codes: cold });
      assert.ok(existsSync(join(cache, "tsc-state")), "state persisted in the cache directory");
      assert.deepEqual(readdirSync(root).sort(), ["a.ts", "b.ts", "tsconfig.json"], "nothing written into the tree");
      assert.deepEqual(new WarmTsProgram(ts, config, persist).storedAnswer(), { codes: cold }, "a new host answers from disk");
      writeFileSync(join(root, "a.ts"), 'export const a: string = "1";\n');
      const restored = new WarmTsProgram(ts, config, persist);
      assert.deepEqual(codes(restored), raw());
    });
  });

  it("a stored answer rests on the config text its build parsed, not the text on disk when it was written", () => {
    withProgramDir(({ cache, ts, config, root }) => {
      // An unknown option is reported (TS5023) but leaves the options as they are: the key cannot tell the two apart.
      writeFileSync(config, JSON.stringify({ compilerOptions: { strict: true, notAnOption: true }, include: ["a.ts"] }));
      writeFileSync(join(root, "a.ts"), "export const a = 1;\n");
      const persist = { target: target(cache), compiler: ts.version };
      const first = new WarmTsProgram(ts, config, persist);
      const codes = first.check(null)?.diagnostics.map((diagnostic) => diagnostic.code);
      assert.deepEqual(codes, [5023]);
      // The config is mended while that answer is on its way to disk (a first build writes before it answers).
      writeFileSync(config, JSON.stringify({ compilerOptions: { strict: true }, include: ["a.ts"] }));
      first.persist({ codes });
      const second = new WarmTsProgram(ts, config, persist);
      assert.equal(second.storedAnswer(), null, "the stored answer was given for another config text");
      assert.deepEqual(
        second.check(null)?.diagnostics.map((diagnostic) => diagnostic.code),
        [],
      );
    });
  });
});

it("a TypeScript 7 record stores reads by content: a stamp vouches only for a file untouched since tsgo read it", () => {
  const dir = tempDir("signalint-ts7-record-");
  try {
    const file = join(dir, "a.ts");
    writeFileSync(file, "export const a = 1;\n");
    // Written more than a second ago: its stamp is not racy.
    const old = new Date(Date.now() - 10_000);
    utimesSync(file, old, old);
    const stamp = answer("readFile", file);
    const key = `readFile\0${file}`;
    const hashes = new Map<string, [string, string]>();
    const record = lastingRecord(new Map([[key, stamp]]), new Map(), hashes);
    assert.deepEqual(record, [[key, createHash("sha256").update("export const a = 1;\n").digest("hex")]]);
    assert.ok(recordHolds(record ?? []));
    // A later record of the untouched file takes the hash it has (not read again: here a stand-in value shows it).
    hashes.set(file, [stamp, "kept"]);
    assert.deepEqual(lastingRecord(new Map([[key, stamp]]), new Map(), hashes), [[key, "kept"]]);
    // Written since tsgo read it: no record at all (the answer rests on what tsgo read, not on what is there now).
    writeFileSync(file, "export const a = 2;\n");
    assert.equal(lastingRecord(new Map([[key, stamp]]), new Map(), hashes), null);
    // The stored record no longer holds for the new content.
    assert.equal(recordHolds(record ?? []), false);
    // Read while racy: the hash taken at the read is what is stored.
    const racy = answer("readFile", file);
    assert.match(racy, /racy/);
    assert.deepEqual(lastingRecord(new Map([[key, racy]]), new Map([[file, "at-read"]]), hashes), [[key, "at-read"]]);
    assert.equal(lastingRecord(new Map([[key, racy]]), new Map(), hashes), null);
  } finally {
    removeDir(dir);
  }
});
