import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { connect, fixture, linkBin, removeDir, scratchCopy, structured } from "../helpers.ts";

describe("progress heartbeat", () => {
  it("while an engine runs past the heartbeat interval, notifications keep coming and name what is running", {
    skip: process.platform === "win32" ? "the gate is a FIFO (mkfifo)" : false,
  }, async () => {
    const project = scratchCopy("clean", "heartbeat");
    const gate = join(project, "gate.fifo");
    execFileSync("mkfifo", [gate]);
    linkBin(project, "oxlint", fixture("fault-engines/gated.cjs"));
    writeFileSync(join(project, "signalint.config.json"), JSON.stringify({ engines: { oxlint: true, tsc: false } }));
    // A short interval for the test; the product's default is 5 s (the issue asks for at most 10 s).
    const session = await connect(project, { SIGNALINT_PROGRESS_HEARTBEAT_MS: "50", SIGNALINT_FAULT_GATE: gate });
    // The SDK client handles a notification a microtask late, so one written just before the result can find its
    // token gone and be reported here instead (a client-side race; the server sends it before the result).
    session.client.onerror = () => {};
    try {
      const messages: string[] = [];
      let opened = false;
      const result = (await session.client.callTool({ name: "check_project", arguments: {} }, undefined, {
        onprogress: ({ message }) => {
          messages.push(message ?? "");
          // Two heartbeats in a row while the engine is blocked: the heartbeat repeats, it is not a one-off.
          if (!opened && messages.filter((text) => text.startsWith("still running")).length >= 2) {
            opened = true;
            writeFileSync(gate, "go");
          }
        },
      })) as CallToolResult;
      assert.equal(structured<{ status: string }>(result).status, "clean");
      const beats = messages.filter((text) => text.startsWith("still running"));
      assert.ok(beats.length >= 2, JSON.stringify(messages));
      for (const beat of beats) assert.match(beat, /^still running after \d+ s: oxlint$/);
      assert.ok(messages.includes("oxlint started"), JSON.stringify(messages));
      // Heartbeats name the engine only while it runs; the first comes before its result.
      assert.ok(messages.indexOf("oxlint started") < messages.indexOf(beats[0] as string), JSON.stringify(messages));
    } finally {
      await session.close();
      removeDir(project);
    }
  });
});
