// A node:test reporter that prints the run's skipped tests with their reasons at the end (issue 37 item 4), and adds
// them to the GitHub Actions job summary when $GITHUB_STEP_SUMMARY is set. Used beside the spec reporter:
//   node --test --test-reporter=spec --test-reporter-destination=stdout \
//     --test-reporter=./build/test-skips.mjs --test-reporter-destination=stdout dist/test/…
// A skip CI should not need fails on its own (test/helpers/skips.ts); this makes every other skip visible.
import { appendFileSync } from "node:fs";
import { relative } from "node:path";

export default async function* skips(source) {
  const skipped = [];
  for await (const event of source) {
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    const { skip, name, file, details } = event.data;
    if (skip === undefined || skip === false) continue;
    const where = file ? relative(process.cwd(), file) : "";
    skipped.push({ name, where, reason: typeof skip === "string" ? skip : "(no reason given)", suite: details?.type === "suite" });
  }
  const byReason = new Map();
  for (const entry of skipped) byReason.set(entry.reason, [...(byReason.get(entry.reason) ?? []), entry]);
  const lines = [`Skipped: ${skipped.length} test(s)${skipped.length ? ", by reason:" : ""}`];
  for (const [reason, entries] of byReason)
    lines.push(`- ${reason} (${entries.length}): ${entries.map((entry) => `${entry.where} › ${entry.name}${entry.suite ? " (suite)" : ""}`).join("; ")}`);
  const text = `${lines.join("\n")}\n`;
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, `### Skipped tests\n\n${text}\n`);
  yield `\n${text}`;
}
