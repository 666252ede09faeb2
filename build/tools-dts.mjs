// node build/tools-dts.mjs [--mode both|structured] [--compact]: the TypeScript declarations a code-mode harness
// generates from Signalint's tools/list (json-schema-to-typescript, as such harnesses do), printed to stdout with
// their size on stderr. Every tool's input and output schema goes into one document whose `$defs` are merged (a shape
// such as Issue or Cluster has the same definition in every output schema), so each shared type is declared once.
import { resolve } from "node:path";
import { compile } from "json-schema-to-typescript";
import { toolsListLine } from "./jsonrpc-stdio.mjs";

const ROOT = resolve(import.meta.dirname, "..");
const mode = process.argv.includes("--mode") ? process.argv[process.argv.indexOf("--mode") + 1] : "both";
const compact = process.argv.includes("--compact");

const line = await toolsListLine(ROOT, mode, compact);
const { tools } = JSON.parse(line).result;

const pascal = (name) => name.replace(/(^|_)([a-z])/g, (_, _sep, letter) => letter.toUpperCase());
const defs = {};
const methods = [];
for (const tool of tools) {
  const { $defs = {}, ...output } = tool.outputSchema ?? {};
  Object.assign(defs, $defs);
  const name = pascal(tool.name);
  defs[`${name}Input`] = { ...tool.inputSchema, title: `${name}Input` };
  if (tool.outputSchema) defs[`${name}Result`] = { ...output, title: `${name}Result` };
  // Text mode advertises no output schema: the harness can only say the result is the text it gets.
  const result = tool.outputSchema ? `${name}Result` : "string";
  methods.push(`  /** ${tool.description} */\n  ${tool.name}(input: ${name}Input): Promise<${result}>;`);
}
// The options a harness would use: no banner, every definition declared (json-schema-to-typescript's defaults
// otherwise; it names each interface after its $defs key or title).
const types = await compile({ title: "SignalintTypes", type: "object", additionalProperties: false, $defs: defs }, "SignalintTypes", {
  bannerComment: "",
  unreachableDefinitions: true,
});
const declarations = `${types.replace(/^export interface SignalintTypes \{\}\n/m, "")}\ndeclare const signalint: {\n${methods.join("\n")}\n};\n`;
process.stdout.write(declarations);
const listBytes = Buffer.byteLength(JSON.stringify({ tools }));
process.stderr.write(`tools/list result ${listBytes} B (${mode}${compact ? " + compact" : ""}); declarations ${Buffer.byteLength(declarations)} B\n`);
