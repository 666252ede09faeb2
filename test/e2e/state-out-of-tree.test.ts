// Issue 31, item 1: everything under the project root is the repository author's. State planted in `<root>/.signalint`
// (a journal, a daemon record, an ownership lock, a symlink out of the tree) is never read or acted on, and the state
// a check keeps lives in the per-user state home, keyed by the project's real root.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readDaemonRecord } from "../../src/daemon/record.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { defaultStateDir, removeDir, runCli, scratchCopy, tempDir } from "../helpers.ts";
import { assertTreeUnchanged, snapshotTree } from "../helpers/tree.ts";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The CLI's check with the default state directory (a blank SIGNALINT_STATE_DIR means the default). */
function check(project: string, cache: string): { status: number | null; stdout: string; stderr: string } {
  return runCli(["check", "--format", "json"], { cwd: project, env: { SIGNALINT_STATE_DIR: " ", SIGNALINT_CACHE_DIR: cache } });
}

describe("state lives outside the project tree; a planted .signalint is never read", () => {
  const dirs: string[] = [];
  const daemons: number[] = [];
  after(() => {
    for (const pid of daemons) createNodeRuntime().daemon?.kill(pid, "SIGKILL");
    dirs.forEach(removeDir);
  });

  it("a planted journal (target outside the project, backup a repository file) is not executed", () => {
    const project = scratchCopy("sparse", "planted-journal");
    const outside = tempDir("signalint-victim-");
    const cache = tempDir("signalint-cache-");
    dirs.push(project, outside, cache);
    const victim = join(outside, "bashrc");
    writeFileSync(victim, "the user's own file\n");
    const payload = "echo planted by the repository\n";
    const id = "tx-0123456789abcdef";
    mkdirSync(join(project, ".signalint", "journal", id), { recursive: true });
    writeFileSync(join(project, ".signalint", "journal", id, "0.orig"), payload);
    const inside = join(project, "src", "index.ts");
    const journal = (target: string) => ({
      transactionId: id,
      state: "committing",
      entries: [{ file: "x", target, temp: `${target}.tmp`, backup: join(project, ".signalint", "journal", id, "0.orig"), originalHash: sha256(payload) }],
    });
    writeFileSync(join(project, ".signalint", "journal", `${id}.journal`), JSON.stringify(journal(victim)));
    writeFileSync(
      join(project, ".signalint", "journal", "tx-fedcba9876543210.journal"),
      JSON.stringify({ ...journal(inside), transactionId: "tx-fedcba9876543210" }),
    );
    const before = existsSync(inside) ? readFileSync(inside, "utf8") : null;
    const tree = snapshotTree(project);
    const result = check(project, cache);
    assert.ok(result.status === 0 || result.status === 1, result.stderr);
    assert.doesNotMatch(result.stderr, /rolled back/);
    assert.equal(readFileSync(victim, "utf8"), "the user's own file\n", "a file outside the project is never written");
    assert.equal(existsSync(inside) ? readFileSync(inside, "utf8") : null, before, "a source file is never rewritten from a planted journal");
    assertTreeUnchanged(project, tree);
    assert.ok(existsSync(join(defaultStateDir(project), "session.jsonl")), "the check's state is in the per-user state home");
  });

  it("a planted owner.lock and daemon.record naming a live process hold nothing and signal nothing", () => {
    const project = scratchCopy("sparse", "planted-lock");
    const cache = tempDir("signalint-cache-");
    dirs.push(project, cache);
    mkdirSync(join(project, ".signalint"), { recursive: true });
    // This test's own process stands for the user's unrelated process.
    writeFileSync(join(project, ".signalint", "owner.lock"), String(process.pid));
    const record = { pid: process.pid, startedAt: new Date().toISOString(), socket: "/nonexistent.sock", version: "0.1.0", protocol: 1, root: project };
    writeFileSync(join(project, ".signalint", "daemon.record"), JSON.stringify(record));
    const result = check(project, cache);
    assert.ok(result.status === 0 || result.status === 1, result.stderr);
    assert.doesNotMatch(result.stderr, /belongs to another Signalint process/, "the project's own state directory was used");
    assert.ok(existsSync(join(defaultStateDir(project), "session.jsonl")));
  });

  it("a .signalint symlink out of the tree receives nothing; doctor says the directory is never read", () => {
    const project = scratchCopy("sparse", "planted-link");
    const elsewhere = tempDir("signalint-elsewhere-");
    const cache = tempDir("signalint-cache-");
    dirs.push(project, elsewhere, cache);
    symlinkSync(elsewhere, join(project, ".signalint"));
    const result = check(project, cache);
    assert.ok(result.status === 0 || result.status === 1, result.stderr);
    assert.deepEqual(readdirSync(elsewhere), [], "nothing was written through the link");
    const doctor = runCli(["doctor"], { cwd: project, env: { SIGNALINT_STATE_DIR: " ", SIGNALINT_CACHE_DIR: cache } });
    assert.match(doctor.stdout, /\.signalint is never read .*it can be deleted/);
    assert.match(doctor.stdout, new RegExp(`state dir +${defaultStateDir(project).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`));
  });

  it("a copied project carries no state: the copy gets its own state directory, private to the user", () => {
    const project = scratchCopy("sparse", "copied");
    const cache = tempDir("signalint-cache-");
    dirs.push(project, cache);
    assert.ok(check(project, cache).status !== null);
    const copy = tempDir("signalint-copy-");
    dirs.push(copy);
    cpSync(project, copy, { recursive: true, verbatimSymlinks: true });
    assert.ok(!existsSync(join(copy, ".signalint")), "nothing of Signalint's was in the tree to copy");
    assert.ok(check(copy, cache).status !== null);
    assert.notEqual(defaultStateDir(copy), defaultStateDir(project));
    for (const dir of [defaultStateDir(project), defaultStateDir(copy)]) {
      assert.ok(existsSync(join(dir, "session.jsonl")));
      assert.equal(statSync(dir).mode & 0o777, 0o700, `${dir} is private to the user`);
    }
  });

  it("two worktrees of one repository get a daemon each", async () => {
    const main = scratchCopy("sparse", "worktree-main");
    const cache = tempDir("signalint-cache-");
    dirs.push(main, cache);
    const git = (args: string[], cwd: string) => {
      const result = spawnSync("git", args, { cwd, encoding: "utf8", env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" } });
      assert.equal(result.status, 0, result.stderr);
    };
    writeFileSync(join(main, ".gitignore"), "node_modules\n");
    git(["init", "-q"], main);
    git(["-c", "user.email=t@t", "-c", "user.name=t", "add", "-A"], main);
    git(["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "x"], main);
    const second = join(tempDir("signalint-worktree-"), "second");
    dirs.push(second);
    git(["worktree", "add", "-q", second], main);
    symlinkSync(join(main, "node_modules"), join(second, "node_modules"));
    const records = [];
    for (const tree of [main, second]) {
      const result = runCli(["check"], { cwd: tree, env: { SIGNALINT_DAEMON: "1", SIGNALINT_STATE_DIR: " ", SIGNALINT_CACHE_DIR: cache } });
      assert.doesNotMatch(result.stderr, /no daemon/, result.stderr);
      const record = await readDaemonRecord(createNodeRuntime(), defaultStateDir(tree));
      assert.ok(record, `a daemon serves ${tree}`);
      daemons.push(record.pid);
      records.push(record);
    }
    assert.notEqual(records[0]?.pid, records[1]?.pid, "two daemons");
    assert.notEqual(records[0]?.socket, records[1]?.socket);
  });
});
