// A worked transcript of the agent fix loop on a scratch copy of fixtures/systemic-ts, with the bytes of every
// result the model reads (text blocks of a `both`-mode server): check_project → edit → after_edit_check →
// preview_diagnostic_fix → apply_diagnostic_fix. Run `npm run build` first.
// On the harness (bench-harness.mjs): private state and cache homes, the daemon stopped through its record, the fixture
// snapshotted and untouched, and the first check's issues compared with tsc and oxlint run directly (exit 1).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { answerKeys, compareKeys, directTscOxlint, env, fail, guardTree, mcpIssues, openSession, ROOT, runBench, scratchCopy } from "./bench-harness.mjs";

await runBench(async () => {
  const project = scratchCopy(guardTree(join(ROOT, "fixtures", "systemic-ts")));
  const { client } = await openSession(project, env(), "transcript");
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
  const diff = compareKeys((await directTscOxlint(project)).keys, answerKeys(await mcpIssues(client, check.value)));
  if (diff.missing.length || diff.extra.length) fail(`check_project differs from tsc and oxlint run directly: ${JSON.stringify(diff)}`);
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

  console.log("| call | bytes the model reads | what it said |\n|---|---:|---|");
  for (const row of rows) console.log(`| \`${row.call}\` | ${row.bytes} | ${row.note} |`);
});
