// The channel between the server and a warm TypeScript host (src/typescript/host-protocol.ts over core/framing.ts):
// TypeScript's own output (a tsconfig with traceResolution, extendedDiagnostics, listFiles) never reaches it; a host
// that writes anything but a valid reply to a waiting request is failed loudly and every request settles; the host
// reads frames split anywhere or several in one chunk, answers a request of another protocol version as unsupported
// and goes on, and ends loudly on a broken frame or a message that is not a request; a request's timeout
// runs from when the host takes it up, not while it waits behind another.
import assert from "node:assert/strict";
import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, it } from "node:test";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import { SignalintService } from "../../src/service/signalint.ts";
import { encodeFrame, frameReader } from "../../src/core/framing.ts";
import { encodeHostMessage, HOST_PROTOCOL, type HostRequest, readReply, WARM_HOST_MODE } from "../../src/typescript/host-protocol.ts";
import { WarmHost } from "../../src/typescript/warm-host-client.ts";
import { WarmTsPool } from "../../src/typescript/warm-pool.ts";
import { BUNDLE, fixture, REPO, removeDir, scratchCopy, serviceTscKeys, tempDir } from "../helpers.ts";

const TYPESCRIPT = join(REPO, "node_modules", "typescript");

/** A project whose tsconfig asks tsc to print resolution traces, statistics and the file list, with two errors. */
function tracingProject(): string {
  const dir = tempDir("signalint-trace-");
  mkdirSync(join(dir, "src"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(TYPESCRIPT, join(dir, "node_modules", "typescript"));
  writeFileSync(join(dir, "signalint.config.json"), '{ "engines": { "oxlint": false, "biome": false, "eslint": false, "tsc": true } }');
  const compilerOptions = { strict: true, noEmit: true, skipLibCheck: true, traceResolution: true, extendedDiagnostics: true, listFiles: true };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["src"] }));
  writeFileSync(join(dir, "src", "lib.ts"), "export const value = 1;\n");
  writeFileSync(join(dir, "src", "main.ts"), 'import { value } from "./lib";\nimport { gone } from "./missing";\nexport const a: string = value;\n');
  return dir;
}

/** The errors of a cold `tsc -p` (its traces, statistics and file list are not diagnostics): file:line:col rule. */
function coldTsc(dir: string): string[] {
  const result = spawnSync(process.execPath, [join(TYPESCRIPT, "bin", "tsc"), "--pretty", "false", "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8" });
  return result.stdout
    .split("\n")
    .flatMap((line) => {
      const found = /^(.+)\((\d+),(\d+)\): error (TS\d+)/.exec(line);
      return found ? [`${found[1]}:${found[2]}:${found[3]} ${found[4]}`] : [];
    })
    .sort();
}

describe("TypeScript's own output never reaches the host channel", () => {
  it("a tsconfig with traceResolution, extendedDiagnostics and listFiles: the warm answer equals a cold tsc, twice from one host", async () => {
    const project = tracingProject();
    const stateDir = tempDir("signalint-trace-state-");
    process.env.SIGNALINT_STATE_DIR = stateDir;
    const runtime = createNodeRuntime({ selfScript: BUNDLE });
    const stderr: string[] = [];
    const writeStderr = runtime.writeStderr.bind(runtime);
    runtime.writeStderr = (text) => (stderr.push(text), writeStderr(text));
    const service = await SignalintService.create(runtime, { root: project });
    try {
      const cold = coldTsc(project);
      assert.equal(cold.length, 2, "the cold run reports both errors (and prints its traces)");
      const keys = (response: Awaited<ReturnType<SignalintService["check"]>>) =>
        serviceTscKeys(service, response)
          .map((key) => key.split(" ").slice(0, 2).join(" "))
          .sort();
      const first = await service.check(["."], false);
      assert.deepEqual(keys(first), cold);
      assert.equal(service.lastTiming?.cache?.tsc?.mode, "warm-full", "the host built the program and answered");
      writeFileSync(join(project, "src", "lib.ts"), 'export const value = "one";\n');
      const second = await service.check(["src/main.ts"], true);
      const coldAfter = coldTsc(project);
      assert.deepEqual(keys(second), coldAfter);
      assert.equal(coldAfter.length, 1);
      assert.equal(service.lastTiming?.cache?.tsc?.mode, "warm-incremental", "the same host answered again: its channel is intact");
      assert.deepEqual(
        stderr.filter((text) => /warm TypeScript/.test(text)),
        [],
        "no host failed",
      );
    } finally {
      service.close();
      removeDir(project);
      removeDir(stateDir);
    }
  });
});

/** A host started from `script` (a real process that misbehaves) instead of Signalint. */
function fakeHost(script: string): { host: WarmHost; cleanup: () => void } {
  const dir = tempDir("signalint-fake-host-");
  const path = join(dir, "host.mjs");
  writeFileSync(path, script);
  const runtime = createNodeRuntime({ selfScript: path });
  const host = new WarmHost(runtime.spawnSelf.bind(runtime), dir, () => {});
  return { host, cleanup: () => (host.kill(), removeDir(dir)) };
}

const REQUEST: Omit<HostRequest, "id"> = {
  kind: "project",
  typescriptDir: TYPESCRIPT,
  configPath: "/nowhere/tsconfig.json",
  cwd: "/nowhere",
  configFile: "tsconfig.json",
  invalidate: false,
};

/**
 * A fake host script: on its first request frame, write the bytes `reply(id)` returns (a Buffer, which `frame(value)`
 * makes a well-formed frame of); then keep running.
 */
const replying = (reply: string) =>
  `const frame = (value) => { const body = Buffer.from(JSON.stringify(value)); const head = Buffer.alloc(4); head.writeUInt32BE(body.length); return Buffer.concat([head, body]); };
process.stdin.once("data", (chunk) => {
  const id = JSON.parse(chunk.subarray(4, 4 + chunk.readUInt32BE(0)).toString()).id;
  process.stdout.write((${reply})(id));
});
setInterval(() => {}, 1000);
`;

describe("a host that breaks the protocol fails loudly", () => {
  const cases: [string, string, RegExp][] = [
    ["bytes that are not a frame (TypeScript printing to stdout)", "() => Buffer.from('error TS2322: not a frame\\n')", /exceeds the 67108864-byte limit/],
    ["a frame that is not JSON", "() => Buffer.from([0, 0, 0, 3, 123, 123, 123])", /not UTF-8 JSON/],
    ["a reply of the wrong shape", `(id) => frame({ v: ${HOST_PROTOCOL}, id, ok: true, issues: 'none' })`, /not a host reply/],
    [
      "a reply of another protocol version",
      "(id) => frame({ v: 1, id, ok: false, unsupported: false, error: 'x', rssBytes: 1 })",
      new RegExp(`a host reply of host protocol 1; this side speaks ${HOST_PROTOCOL}`),
    ],
    [
      "a reply to a request nobody sent",
      `(id) => frame({ v: ${HOST_PROTOCOL}, id: id + 41, ok: false, unsupported: false, error: 'x', rssBytes: 1 })`,
      /a reply to request 42, which is not waiting/,
    ],
  ];
  for (const [label, reply, reason] of cases) {
    it(`${label}: every waiting request settles with the reason and the host is killed`, async () => {
      const { host, cleanup } = fakeHost(replying(reply));
      try {
        const [first, queued] = await Promise.all([host.request(REQUEST, 60_000), host.request(REQUEST, 60_000)]);
        for (const result of [first, queued]) {
          assert.equal(result.status, "died");
          assert.match((result as { reason?: string }).reason ?? "", reason);
        }
        assert.equal((await host.request(REQUEST, 60_000)).status, "died", "a broken host takes no more requests");
      } finally {
        cleanup();
      }
    });
  }
});

/** A real host (the bundle in host mode) driven over its stdin; its replies read back through core/framing.ts. */
function realHost(): { child: ChildProcessWithoutNullStreams; replies: unknown[]; next: () => Promise<unknown>; stderr: () => string } {
  const child = spawn(process.execPath, [BUNDLE, WARM_HOST_MODE], { stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const replies: unknown[] = [];
  const waiting: ((reply: unknown) => void)[] = [];
  child.stdout.on(
    "data",
    frameReader((reply) => (waiting.length ? waiting.shift()?.(reply) : replies.push(reply))),
  );
  const next = () => (replies.length ? Promise.resolve(replies.shift()) : new Promise<unknown>((resolve) => waiting.push(resolve)));
  return { child, replies, next, stderr: () => stderr };
}

/** A listing request that only loads the compiler (no config): the cheapest request a host answers. */
const load = (id: number) => ({ id, listing: { typescriptDir: TYPESCRIPT, configPath: null } });

describe("the host side of the channel", () => {
  it("frames split anywhere and several in one chunk are each answered, in order", async () => {
    const { child, next } = realHost();
    try {
      const stream = Buffer.concat([encodeHostMessage(load(1)), encodeHostMessage(load(2)), encodeHostMessage(load(3))]);
      // A header cut in two, a body cut in two, and the rest (two frames and a half) in one chunk.
      for (const [from, to] of [
        [0, 2],
        [2, 9],
        [9, stream.length],
      ] as const)
        child.stdin.write(stream.subarray(from, to));
      for (const id of [1, 2, 3]) {
        const reply = readReply(await next());
        assert.ok(reply.ok && "listing" in reply, JSON.stringify(reply));
        assert.deepEqual({ id: reply.id, listing: reply.listing }, { id, listing: null }, `reply ${id}`);
        assert.ok(reply.rssBytes > 0);
      }
    } finally {
      child.kill();
    }
  });

  it("a request of another protocol version is answered as unsupported with code protocol_version; the host goes on", async () => {
    const { child, next } = realHost();
    try {
      child.stdin.write(encodeFrame({ v: HOST_PROTOCOL + 1, id: 7, shape: "of a later version" }));
      const refusal = readReply(await next());
      assert.ok(!refusal.ok && "unsupported" in refusal, JSON.stringify(refusal));
      assert.deepEqual({ id: refusal.id, unsupported: refusal.unsupported, code: refusal.code }, { id: 7, unsupported: true, code: "protocol_version" });
      assert.match(refusal.error, new RegExp(`host protocol ${HOST_PROTOCOL + 1}; this side speaks ${HOST_PROTOCOL}`));
      child.stdin.write(encodeHostMessage(load(8)));
      const answered = readReply(await next());
      assert.ok(answered.ok && answered.id === 8, "the host answered the next request");
    } finally {
      child.kill();
    }
  });

  const fatal: [string, () => Uint8Array, RegExp][] = [
    ["a message that is not a valid request", () => encodeHostMessage({ id: 1, kind: "project" } as unknown as HostRequest), /not a host request/],
    ["a frame over the size bound", () => new Uint8Array([0xff, 0xff, 0xff, 0xff]), /exceeds the 67108864-byte limit/],
    ["a frame that is not JSON", () => new Uint8Array([0, 0, 0, 2, 0x7b, 0x7b]), /not UTF-8 JSON/],
  ];
  for (const [label, bytes, reason] of fatal) {
    it(`${label} ends the host with an error on stderr (exit 1)`, async () => {
      const { child, stderr } = realHost();
      child.stdin.write(bytes());
      // "close": the process exited and its stderr was read to the end.
      const [code] = (await once(child, "close")) as [number];
      assert.equal(code, 1);
      assert.match(stderr(), reason);
    });
  }
});

describe("a cancel stops only the caller's work on a shared host", () => {
  it("a request cancelled while it waits behind another client's is withdrawn; the host and the other request go on", async () => {
    const root = fixture("references");
    const runtime = createNodeRuntime({ selfScript: BUNDLE });
    const host = new WarmHost(runtime.spawnSelf.bind(runtime), root, () => {});
    const solution = { ...REQUEST, kind: "solution" as const, configPath: join(root, "tsconfig.json"), cwd: root };
    const view = { ...solution, configFile: "packages/app/tsconfig.json", view: join(root, "packages/app/tsconfig.json") };
    try {
      const pid = host.pid;
      const other = host.request(solution, 120_000);
      const cancel = new AbortController();
      const mine = host.request(view, 120_000, cancel.signal);
      cancel.abort();
      assert.equal((await mine).status, "withdrawn", "answered at once, before the host took it up");
      const answered = await other;
      assert.ok(answered.status === "answer" && answered.reply.ok, "the other client's check was answered (the host was not killed)");
      // The host reaches the withdrawn request later and its reply is dropped, not taken for a protocol error.
      const next = await host.request(view, 120_000);
      assert.ok(next.status === "answer" && next.reply.ok, JSON.stringify(next));
      assert.equal(host.pid, pid, "the same host process served every request");
      // A cancel of the request the host is working on still stops it (the host is killed).
      const working = new AbortController();
      const current = host.request(solution, 120_000, working.signal);
      working.abort();
      assert.equal((await current).status, "cancelled");
      assert.equal((await host.request(solution, 120_000)).status, "died", "the killed host takes no more requests");
    } finally {
      host.kill();
    }
  });
});

describe("a request's timeout runs from when the host takes it up", { skip: process.platform === "win32" && "stops the host with SIGSTOP" }, () => {
  it("a view queued behind a check of its solution does not time out while it waits (and so does not kill the shared host)", async () => {
    const root = fixture("references");
    const runtime = createNodeRuntime({ selfScript: BUNDLE });
    const host = new WarmHost(runtime.spawnSelf.bind(runtime), root, () => {});
    const solution = { ...REQUEST, kind: "solution" as const, configPath: join(root, "tsconfig.json"), cwd: root };
    const view = { ...solution, configFile: "packages/app/tsconfig.json", view: join(root, "packages/app/tsconfig.json") };
    const timeoutMs = 1_000;
    try {
      const built = await host.request(solution, 120_000);
      assert.ok(built.status === "answer" && built.reply.ok, "the solution is built");
      // The host cannot answer anything until it is continued: the solution's check is taken up, the view waits.
      process.kill(host.pid as number, "SIGSTOP");
      const checked = host.request(solution, 120_000);
      const viewed = host.request(view, timeoutMs);
      // Longer than the view's timeout: a timer started when the view was queued would have fired by now.
      await new Promise((resolve) => setTimeout(resolve, 2 * timeoutMs));
      process.kill(host.pid as number, "SIGCONT");
      const [solutionResult, viewResult] = await Promise.all([checked, viewed]);
      assert.equal(solutionResult.status, "answer", "the solution's check was answered (the host was not killed)");
      assert.equal(viewResult.status, "answer", "the view was answered within its own timeout once the host took it up");
      assert.ok(viewResult.status === "answer" && viewResult.reply.ok && "info" in viewResult.reply && viewResult.reply.info.reuse === "reused");
    } finally {
      host.kill();
    }
  });
});

/** What `tsc -p <config> --showConfig` lists: the config's files (absolute) and its references' configs. */
function showConfig(config: string): { files: string[]; references: string[] } {
  const result = spawnSync(process.execPath, [join(TYPESCRIPT, "bin", "tsc"), "-p", config, "--showConfig"], { encoding: "utf8" });
  const shown = JSON.parse(result.stdout) as { files?: string[]; references?: { path: string }[] };
  const dir = dirname(config);
  return {
    files: (shown.files ?? []).map((file) => resolve(dir, file)).sort(),
    references: (shown.references ?? []).map((reference) => join(resolve(dir, reference.path), "tsconfig.json")).sort(),
  };
}

describe("a host lists configs without building a program", () => {
  it("each config's listing equals `tsc --showConfig`; a listing leaves the host free for the program it keeps next", async () => {
    const root = scratchCopy("references");
    const runtime = createNodeRuntime({ selfScript: BUNDLE });
    const host = new WarmHost(runtime.spawnSelf.bind(runtime), root, () => {});
    try {
      const loaded = await host.request({ listing: { typescriptDir: TYPESCRIPT, configPath: null } }, 120_000);
      assert.ok(loaded.status === "answer" && loaded.reply.ok && "listing" in loaded.reply && loaded.reply.listing === null, "only the compiler loaded");
      for (const config of ["tsconfig.json", "packages/app/tsconfig.json", "packages/core/tsconfig.json"].map((path) => join(root, path))) {
        const listed = await host.request({ listing: { typescriptDir: TYPESCRIPT, configPath: config } }, 120_000);
        assert.ok(listed.status === "answer" && listed.reply.ok && "listing" in listed.reply && listed.reply.listing, config);
        const { files, references } = listed.reply.listing;
        assert.deepEqual({ files: [...(files ?? [])].sort(), references: [...references].sort() }, showConfig(config), config);
      }
      const program = { ...REQUEST, configPath: join(root, "packages/core/tsconfig.json"), cwd: root };
      const checked = await host.request(program, 120_000);
      assert.ok(checked.status === "answer" && checked.reply.ok && "info" in checked.reply, "the program was built after the listings");
      assert.equal(checked.reply.info.reuse, "full");
    } finally {
      host.kill();
      removeDir(root);
    }
  });

  it("a cancelled listing answers at once and keeps the spare host with its compiler (no second host starts)", async () => {
    const runtime = createNodeRuntime({ selfScript: BUNDLE });
    let started = 0;
    const spawnSelf = runtime.spawnSelf.bind(runtime);
    runtime.spawnSelf = (mode, cwd) => (started++, spawnSelf(mode, cwd));
    const root = scratchCopy("references");
    const pool = new WarmTsPool(runtime, root);
    const config = join(root, "tsconfig.json");
    try {
      const controller = new AbortController();
      const cancelled = pool.list(TYPESCRIPT, config, 120_000, controller.signal);
      controller.abort();
      assert.equal(await cancelled, null);
      const listed = await pool.list(TYPESCRIPT, config, 120_000);
      assert.deepEqual([...(listed?.references ?? [])].sort(), showConfig(config).references);
      assert.equal(started, 1, "the same host answered after the cancel");
    } finally {
      pool.close();
      removeDir(root);
    }
  });

  it("TypeScript 7 (no compiler API): the listing is unsupported and the host answers the next request", async () => {
    const runtime = createNodeRuntime({ selfScript: BUNDLE });
    const dir = tempDir("signalint-list7-");
    const host = new WarmHost(runtime.spawnSelf.bind(runtime), dir, () => {});
    try {
      const ts7 = join(REPO, "node_modules", "typescript7");
      const listed = await host.request({ listing: { typescriptDir: ts7, configPath: join(dir, "tsconfig.json") } }, 60_000);
      assert.ok(listed.status === "answer" && !listed.reply.ok && listed.reply.unsupported, "unsupported, said as such");
      const again = await host.request({ listing: { typescriptDir: TYPESCRIPT, configPath: null } }, 120_000);
      assert.equal(again.status, "answer", "the host is alive");
    } finally {
      host.kill();
      removeDir(dir);
    }
  });

  it("a server's first check lists its configs in its warm host: no `tsc --showConfig` process, the same coverage notes", async () => {
    const project = tracingProject();
    writeFileSync(join(project, "outside.ts"), "export const unchecked: number = 1;\n");
    const firstCheck = async (warmTypeScript: boolean) => {
      const stateDir = tempDir("signalint-list-state-");
      process.env.SIGNALINT_STATE_DIR = stateDir;
      writeFileSync(
        join(project, "signalint.config.json"),
        JSON.stringify({ engines: { oxlint: false, biome: false, eslint: false, tsc: true }, warmTypeScript }),
      );
      const runtime = createNodeRuntime({ selfScript: BUNDLE });
      const spawned: string[][] = [];
      const spawn = runtime.spawn.bind(runtime);
      runtime.spawn = (command, args, options) => (spawned.push([...args]), spawn(command, args, options));
      const service = await SignalintService.create(runtime, { root: project });
      try {
        const response = await service.check(["."], false);
        return { spawned, response, keys: serviceTscKeys(service, response).sort(), mode: service.lastTiming?.cache?.tsc?.mode };
      } finally {
        service.close();
        removeDir(stateDir);
      }
    };
    try {
      const warm = await firstCheck(true);
      const cold = await firstCheck(false);
      assert.equal(warm.mode, "warm-full");
      assert.deepEqual(
        warm.spawned.filter((args) => args.includes("--showConfig")),
        [],
        "no listing process",
      );
      assert.ok(
        cold.spawned.some((args) => args.includes("--showConfig")),
        "without warm TypeScript the command line lists (the observation can fail)",
      );
      assert.deepEqual(warm.keys, cold.keys);
      assert.deepEqual(warm.response.notChecked, cold.response.notChecked);
      assert.ok(JSON.stringify(warm.response.notChecked).includes("outside.ts"), "the file no tsconfig includes is said");
    } finally {
      removeDir(project);
    }
  });
});
