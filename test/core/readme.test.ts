import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { toJsonSchema } from "../../src/mcp/json-schema.ts";
import { TOOLS } from "../../src/mcp/server.ts";
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
