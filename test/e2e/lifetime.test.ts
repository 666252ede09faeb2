// Process lifetime on Node (the cases are in lifetime-cases.ts; Deno and the binary run them in test:dist), a
// cancelled check in the service, and progress notifications.
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { progressReporter, type ProgressParams } from "../../src/mcp/progress.ts";
import { createNodeRuntime } from "../../src/runtime/node.ts";
import type { CheckEvent } from "../../src/service/job/check-events.ts";
import { SignalintService } from "../../src/service/signalint.ts";
import { BUNDLE, call, connect, fixture, lateProgress, linkBin, REPO, removeDir, scratchCopy, structured } from "../helpers.ts";
import {
  cancelledCheckTest,
  describeLifetime,
  engineRunning,
  hangingProject,
  isWarmHost,
  isWatchdog,
  killMarked,
  marked,
  serverLifetimeTests,
  survivors,
} from "./lifetime-cases.ts";

describeLifetime((projects) => {
  serverLifetimeTests("node", projects);

  it("node: after kill -9 of a server with a warm TypeScript 7 process, its host and the tsgo process go too", async (t) => {
    const project = scratchCopy("systemic-ts", "kill9-ts7");
    projects.push(project);
    linkBin(project, "tsc", join(REPO, "node_modules", "typescript7", "bin", "tsc"));
    const marker = join(project, "pids.txt");
    const session = await connect(project, { SIGNALINT_FAULT_PIDS: marker });
    // The first check starts the warm host and its tsgo server and answers from them.
    await call(session.client, "check_project");
    const mode =
      structured<{ cache?: { tsc?: { mode?: string } } }>(await call(session.client, "check_files", { files: ["src/users.ts"] })).cache?.tsc?.mode ?? "";
    assert.match(mode, /^warm-/);
    assert.ok(
      marked(marker).some(({ cmdline }) => cmdline.includes("--api")),
      "a tsgo API process runs",
    );
    process.kill(session.pid as number, "SIGKILL");
    const { left, ms } = await survivors(marker, 10_000);
    t.diagnostic(`tsgo and watchdog gone ${ms} ms after the server was killed`);
    assert.deepEqual(left, []);
  });

  cancelledCheckTest("node", projects);
});

describe("a cancelled check in the service", { skip: process.platform !== "linux" && "counts processes through /proc", timeout: 60_000 }, () => {
  it("kills its engines, throws CheckCancelledError, and leaves no check, session record or loop memory", async (t) => {
    const { project, marker } = hangingProject("cancel-service");
    // The engines inherit this process's environment: the marker reaches them (and /proc still shows our original one).
    process.env.SIGNALINT_FAULT_PIDS = marker;
    const service = await SignalintService.create(createNodeRuntime({ selfScript: BUNDLE }), { root: project });
    try {
      const events: CheckEvent[] = [];
      const controller = new AbortController();
      const checking = service.check(["."], false, { signal: controller.signal, onEvent: (event) => events.push(event) });
      await engineRunning(marker);
      controller.abort();
      await assert.rejects(checking, { name: "CheckCancelledError", code: "cancelled" });
      const { left } = await survivors(marker, 10_000, ({ cmdline }) => isWatchdog(cmdline) || isWarmHost(cmdline));
      assert.deepEqual(left, [], "no engine survives");
      assert.equal(service.store.latest(), undefined, "no check is stored");
      assert.equal(service.lastTiming, null);
      const session = join(service.project.stateDir, "session.jsonl");
      assert.equal(existsSync(session) ? readFileSync(session, "utf8") : "", "", "nothing in loop memory");
      assert.ok(
        events.some((event) => event.kind === "engine-started" && event.engine === "oxlint"),
        JSON.stringify(events),
      );

      // Already cancelled: nothing starts at all.
      const none: CheckEvent[] = [];
      await assert.rejects(service.check(["."], false, { signal: AbortSignal.abort(), onEvent: (event) => none.push(event) }), { code: "cancelled" });
      assert.deepEqual(none, []);
      t.diagnostic(`events of the cancelled check: ${events.map((event) => event.kind).join(", ")}`);
    } finally {
      service.close();
      delete process.env.SIGNALINT_FAULT_PIDS;
      killMarked(marker);
      removeDir(project);
    }
  });
});

describe("progress notifications", () => {
  it("a burst of events is one notification now and the latest one at flush, with increasing progress", async () => {
    const sent: ProgressParams[] = [];
    const reporter = progressReporter("tok", async (params) => {
      sent.push(params);
    });
    reporter.onEvent({ kind: "engine-started", engine: "oxlint" });
    reporter.onEvent({ kind: "engine-started", engine: "tsc" });
    reporter.onEvent({ kind: "tsc-phase", phase: "command line", tsconfig: "tsconfig.json" });
    reporter.onEvent({ kind: "engine-finished", engine: "oxlint", status: "ok", issues: 0 });
    reporter.onEvent({ kind: "engine-finished", engine: "tsc", status: "error", issues: 0 });
    assert.deepEqual(sent, [{ progressToken: "tok", progress: 1, message: "oxlint started" }]);
    await reporter.flush();
    assert.deepEqual(sent.at(-1), { progressToken: "tok", progress: 5, message: "tsc finished (error)" });
    assert.equal(sent.length, 2, "the events between were coalesced");
    await reporter.flush();
    assert.equal(sent.length, 2, "nothing is sent twice");
  });

  it("a check with a progressToken reports engines starting and finishing before its result; one without gets none", async () => {
    const session = await connect(fixture("sparse"));
    // The SDK client reports a progress notification for a token it does not know (late, or never asked for) here.
    const errors: string[] = [];
    session.client.onerror = (error) => errors.push(error.message);
    try {
      const progress: { progress: number; message?: string }[] = [];
      const result = (await session.client.callTool({ name: "check_project", arguments: {} }, undefined, {
        onprogress: (params) => progress.push(params),
      })) as CallToolResult;
      structured(result);
      // The last notification, sent before the result, may reach onerror instead of onprogress (lateProgress).
      const late = lateProgress(errors);
      const received = [...progress, ...late];
      assert.ok(received.length >= 2, `got ${JSON.stringify(received)}`);
      assert.ok(late.length <= 1, `only the last notification can race the response: ${JSON.stringify(late)}`);
      assert.match(received[0]?.message ?? "", /^(oxlint|tsc) started$/);
      // Issue 19 changed the wording: the count is the engine's own, before the check keeps only the checked paths.
      assert.match(received.at(-1)?.message ?? "", /^(oxlint|tsc) finished \(ok, \d+ reported before filtering to the checked paths\)$/);
      for (let i = 1; i < received.length; i++) assert.ok((received[i]?.progress ?? 0) > (received[i - 1]?.progress ?? 0), "progress increases");
      const before = errors.length;
      structured(await call(session.client, "check_project"));
      assert.deepEqual(errors.slice(before), [], "a call without a progressToken gets no notification");
      assert.equal(errors.length, late.length, `no other client error: ${JSON.stringify(errors)}`);
    } finally {
      await session.close();
    }
  });
});
