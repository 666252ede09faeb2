// Issue 31 §6: a read-only server (signalint.config.json `readOnly`, `serve --read-only`, SIGNALINT_READ_ONLY=1)
// neither lists nor serves the fix tools, and its instructions do not send agents to them.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { parseConfigFile, resolveSettings } from "../../src/core/config.ts";
import { BUNDLE, CLEAN_PATH, errorOf, removeDir, scratchCopy, tempDir } from "../helpers.ts";

const FIX_TOOLS = ["preview_diagnostic_fix", "apply_diagnostic_fix", "discard_diagnostic_fix"];

/** The tools a server lists, its instructions, and what a call to apply_diagnostic_fix answers. */
async function surface(project: string, args: string[], env: Record<string, string>) {
  const state = tempDir("signalint-state-");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BUNDLE, ...args],
    cwd: project,
    env: { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", SIGNALINT_DAEMON: "0", SIGNALINT_STATE_DIR: state, SIGNALINT_PREWARM_DELAY_MS: "off", ...env },
    stderr: "pipe",
  });
  const client = new Client({ name: "signalint-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    const apply = (await client.callTool({ name: "apply_diagnostic_fix", arguments: { transactionId: "t1", confirm: true } })) as CallToolResult;
    const ping = (await client.callTool({ name: "ping", arguments: {} })) as CallToolResult;
    assert.equal(ping.content[0]?.type === "text" && ping.content[0].text, "pong");
    return { names, instructions: client.getInstructions() ?? "", apply };
  } finally {
    await client.close();
    removeDir(state);
  }
}

/** A read-only surface: no fix tool listed, a call to one is `read_only`, the instructions name none. */
function assertReadOnly(found: Awaited<ReturnType<typeof surface>>): void {
  for (const name of FIX_TOOLS) assert.ok(!found.names.includes(name), `${name} is not listed`);
  assert.ok(found.names.includes("check_project") && found.names.includes("after_edit_check"), found.names.join(", "));
  assert.equal(errorOf(found.apply).code, "read_only");
  assert.match(errorOf(found.apply).message, /apply_diagnostic_fix is not offered: this server is read-only/);
  assert.doesNotMatch(found.instructions, /apply_diagnostic_fix|preview_diagnostic_fix/);
  assert.match(found.instructions, /read-only/);
}

describe("a read-only server", () => {
  const projects: string[] = [];
  after(() => projects.forEach(removeDir));
  const project = (label: string, config?: object) => {
    const root = scratchCopy("sparse", label);
    projects.push(root);
    if (config) writeFileSync(join(root, "signalint.config.json"), JSON.stringify(config));
    return root;
  };

  it("by default lists the fix tools and tells agents about them", async () => {
    const found = await surface(project("ro-default"), [], {});
    for (const name of FIX_TOOLS) assert.ok(found.names.includes(name), name);
    assert.notEqual(found.apply._meta?.code, "read_only", "apply_diagnostic_fix is served");
    assert.match(found.instructions, /apply_diagnostic_fix/);
  });

  it('with "readOnly": true in signalint.config.json', async () => {
    assertReadOnly(await surface(project("ro-config", { readOnly: true }), [], {}));
  });

  it("with serve --read-only", async () => {
    assertReadOnly(await surface(project("ro-flag"), ["serve", "--read-only"], {}));
  });

  it("with SIGNALINT_READ_ONLY=1; a non-empty SIGNALINT_READ_ONLY=0 wins over the config file and the flag", async () => {
    assertReadOnly(await surface(project("ro-env"), [], { SIGNALINT_READ_ONLY: "1" }));
    const overridden = await surface(project("ro-env-off", { readOnly: true }), ["serve", "--read-only"], { SIGNALINT_READ_ONLY: "0" });
    assert.ok(overridden.names.includes("apply_diagnostic_fix"));
  });

  it("readOnly is a boolean in the config file; an invalid SIGNALINT_READ_ONLY is refused by name", () => {
    assert.throws(() => parseConfigFile('{"readOnly": "yes"}'), /key 'readOnly'/);
    assert.throws(() => resolveSettings({}, (name) => (name === "SIGNALINT_READ_ONLY" ? "maybe" : undefined)), /SIGNALINT_READ_ONLY: expected 1\/true/);
    assert.equal(resolveSettings({}, () => undefined).readOnly, false, "off by default");
    assert.equal(resolveSettings({}, () => undefined, { readOnly: true }).readOnly, true, "the server option");
  });
});
