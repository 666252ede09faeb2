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
  const table = readme.slice(readme.indexOf("## Tools"), readme.indexOf("## Command line"));
  for (const tool of TOOLS) {
    const row = table.split("\n").find((line) => line.startsWith(`| \`${tool.name}\` |`));
    assert.ok(row, `README lists ${tool.name}`);
    const properties = Object.keys((toJsonSchema(tool.input, "input").properties ?? {}) as object);
    for (const property of properties) assert.ok(row.includes(property), `README row of ${tool.name} names its argument ${property}`);
  }
});

it("the README's first screen is a user's: what it is, one real answer, install, add to a client, what you get; then contributor set-up", () => {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  const firstScreen = readme.slice(0, readme.indexOf("## Contributing"));
  assert.ok(firstScreen.split("\n").length <= 45, "the user's path fits one screen");
  const order = ["is a local MCP server", "```text", "npm i -D signalint-mcp", "npx -y signalint-mcp init --yes", "**What you get**"];
  const at = order.map((text) => firstScreen.indexOf(text));
  assert.ok(at.every((position) => position >= 0) && at.every((position, index) => index === 0 || position > (at[index - 1] as number)), JSON.stringify(at));
  const setup = readme.slice(readme.indexOf("## Contributing"), readme.indexOf("## Install"));
  const commands = /```sh\n([\s\S]*?)```/.exec(setup)?.[1]?.trim().split("\n") ?? [];
  assert.deepEqual(
    commands.map((line) => line.split("#")[0]?.trim()),
    ["npm ci && npm run build", "npm test"],
    "the two set-up commands; npm test is the test command",
  );
  assert.equal(JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")).scripts.test !== undefined, true);
  for (const tool of ["llvm-strip", "osslsigncode"]) assert.ok(setup.includes(tool), `set-up names ${tool}`);
});

it("the README names every environment variable the help lists", () => {
  const readme = readFileSync(join(REPO, "README.md"), "utf8");
  for (const [name] of ENVIRONMENT) assert.ok(readme.includes(`\`${name}\``), `README names ${name}`);
});
