// A worked transcript of the agent fix loop on a scratch copy of fixtures/systemic-ts, with the bytes of every
// result the model reads (text blocks of a `both`-mode server): check_project → edit → after_edit_check →
// preview_diagnostic_fix → apply_diagnostic_fix. Run `npm run build` first.
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const repo = resolve(import.meta.dirname, "..");
const project = mkdtempSync(join(tmpdir(), "signalint-transcript-"));
const state = mkdtempSync(join(tmpdir(), "signalint-transcript-state-"));
cpSync(join(repo, "fixtures", "systemic-ts"), project, { recursive: true });
// Use the engines installed here, as a project with its own installs would.
symlinkSync(join(repo, "node_modules"), join(project, "node_modules"));
const client = new Client({ name: "transcript", version: "1.0.0" });
await client.connect(
  new StdioClientTransport({
    command: process.execPath,
    args: [join(repo, "dist", "signalint-mcp.mjs")],
    cwd: project,
    stderr: "ignore",
    env: { ...process.env, SIGNALINT_STATE_DIR: state },
  }),
);
await client.listTools();

const rows = [];
async function step(name, args) {
  const result = await client.callTool({ name, arguments: args });
  const bytes = result.content.filter((block) => block.type === "text").reduce((sum, block) => sum + Buffer.byteLength(block.text), 0);
  rows.push({ call: `${name} ${JSON.stringify(args).slice(0, 70)}`, bytes, note: "" });
  if (result.isError) throw new Error(result.content[0].text);
  return { value: result.structuredContent, row: rows.at(-1) };
}

const check = await step("check_project", {});
check.row.note = `${check.value.totalIssues} issues, checkId ${check.value.checkId}`;
const file = join(project, "src", "billing.ts");
const original = readFileSync(file, "utf8");
// The agent's edit: two comment lines on top (moves every issue) and one fix.
const edited = `// billing\n// (edited)\n${original.replace(/backoffMs: "(\d+)"/, "backoffMs: $1")}`;
writeFileSync(file, edited);
const after = await step("after_edit_check", { files: ["src/billing.ts"] });
after.row.note = `delta: ${after.value.delta.resolved.length} resolved, ${after.value.delta.introduced.length} introduced, ${after.value.delta.unchangedCount} unchanged`;
const auth = join(project, "src", "auth.ts");
const authText = readFileSync(auth, "utf8");
const preview = await step("preview_diagnostic_fix", {
  patches: [{ file: "src/auth.ts", originalContent: authText, patchedContent: authText.replace(/backoffMs: "(\d+)"/, "backoffMs: $1") }],
});
preview.row.note = `+${preview.value.files[0].addedLines} −${preview.value.files[0].removedLines}`;
const apply = await step("apply_diagnostic_fix", { transactionId: preview.value.transactionId, confirm: true });
apply.row.note = `check ${apply.value.check.status}, delta: ${apply.value.delta.resolved.length} resolved, ${apply.value.delta.introduced.length} introduced`;
await client.close();
rmSync(project, { recursive: true, force: true });
rmSync(state, { recursive: true, force: true });

console.log("| call | bytes the model reads | what it said |\n|---|---:|---|");
for (const row of rows) console.log(`| \`${row.call}\` | ${row.bytes} | ${row.note} |`);
