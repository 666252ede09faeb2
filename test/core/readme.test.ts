import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { toJsonSchema } from "../../src/mcp/json-schema.ts";
import { TOOLS } from "../../src/mcp/server.ts";
import { ENVIRONMENT } from "../../src/cli/commands.ts";
import { REPO } from "../helpers.ts";

it("the README's tool table names every tool and each of its arguments, from the schemas", () => {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const table = readme.slice(readme.indexOf("## What the agent gets"), readme.indexOf("## Command line and CI"));
  for (const tool of TOOLS) {
    const row = table.split("\n").find((line) => line.startsWith(`| \`${tool.name}\` |`));
    assert.ok(row, `README lists ${tool.name}`);
    const properties = Object.keys((toJsonSchema(tool.input, "input").properties ?? {}) as object);
    for (const property of properties) assert.ok(row.includes(property), `README row of ${tool.name} names its argument ${property}`);
  }
});

it("the README is a user's, and short: what it is, one real answer, install with the engines, add to a client; contributor set-up last", () => {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  assert.ok(Buffer.byteLength(readme) <= 15 * 1024, `README is ${Buffer.byteLength(readme)} bytes`);
  const firstScreen = readme.split("\n").slice(0, 45).join("\n");
  const order = [
    "is a local MCP server",
    "```text",
    "## Install",
    "engines",
    "npm i -D signalint-mcp oxlint typescript",
    "## Add it to your client",
    "npx -y signalint-mcp init --yes",
  ];
  const at = order.map((text) => firstScreen.indexOf(text));
  assert.ok(at.every((position) => position >= 0) && at.every((position, index) => index === 0 || position > (at[index - 1] as number)), JSON.stringify(at));
  const headings = [...readme.matchAll(/^## (.+)$/gm)].map((match) => match[1]);
  assert.equal(headings.at(-1), "Contributing", "contributor set-up comes after everything a user reads");
  const setup = readme.slice(readme.indexOf("## Contributing"));
  const commands = /```sh\n([\s\S]*?)```/.exec(setup)?.[1]?.trim().split("\n") ?? [];
  assert.deepEqual(
    commands.map((line) => line.split("#")[0]?.trim()),
    ["npm ci && npm run build", "npm test"],
    "the two set-up commands; npm test is the test command",
  );
  assert.equal(JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).scripts.test !== undefined, true);
  for (const tool of ["llvm-strip", "osslsigncode", "EBADENGINE", "install-scripts"]) assert.ok(setup.includes(tool), `set-up names ${tool}`);
  // No 10–20-line sentences: a prose line ends its sentence within two lines (tables and code blocks aside).
  const prose = readme
    .replace(/```[\s\S]*?```/g, "")
    .split(/\n\s*\n/)
    .filter((paragraph) => !paragraph.startsWith("|"));
  for (const paragraph of prose) {
    for (const sentence of paragraph.split(/(?<=[.:!?])\s/)) assert.ok(sentence.length <= 360, `a long sentence: ${sentence.slice(0, 80)}…`);
  }
});

it("the README names every environment variable the help lists", () => {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  for (const [name] of ENVIRONMENT) assert.ok(readme.includes(`\`${name}\``), `README names ${name}`);
});

it("every link of the README reaches a file of this repository and, with an anchor, one of its headings", () => {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const slug = (heading: string) =>
    heading
      .toLowerCase()
      .replace(/[^\w\- ]/g, "")
      .replaceAll(" ", "-");
  const anchors = (text: string) =>
    new Set([...[...text.matchAll(/^#+ (.+)$/gm)].map((match) => slug(match[1] ?? "")), ...[...text.matchAll(/id="([^"]+)"/g)].map((match) => match[1])]);
  const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? "").filter((link) => !/^https?:/.test(link));
  assert.ok(links.length > 5, links.join());
  for (const link of links) {
    const [path, anchor] = link.split("#");
    const text = path ? readFileSync(join(REPO, path), "utf8") : readme;
    if (anchor) assert.ok(anchors(text).has(anchor), `${link}: no such heading`);
  }
});
