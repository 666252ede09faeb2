import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { CheckResponse } from "../../src/core/contracts.ts";
import { listEntry, TOOLS } from "../../src/mcp/server.ts";
import { call, connect, errorOf, everyIssue, removeDir, scratchCopy, structured, type Connected } from "../helpers.ts";

/** Every schema node where MCP Inspector's portability check warns: a `type` array, or a node with no keyword at all. */
function unportable(node: unknown, at = "", found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item, index) => unportable(item, `${at}[${index}]`, found));
  else if (typeof node === "object" && node !== null) {
    const record = node as Record<string, unknown>;
    if (Array.isArray(record.type)) found.push(`${at}: type ${JSON.stringify(record.type)}`);
    for (const [key, value] of Object.entries(record)) {
      if (key === "properties" && typeof value === "object" && value !== null) {
        for (const [name, schema] of Object.entries(value)) unportable(schema, `${at}.properties.${name}`, found);
      } else if (key === "items" || key === "anyOf" || key === "oneOf" || key === "allOf" || key === "additionalProperties") {
        if (key === "items" && typeof value === "object" && value !== null && Object.keys(value).every((k) => k === "description"))
          found.push(`${at}.items: no keyword`);
        unportable(value, `${at}.${key}`, found);
      }
    }
  }
  return found;
}

describe("MCP surface", () => {
  let project: string;
  let session: Connected;
  before(async () => {
    project = scratchCopy("systemic-ts", "surface");
    session = await connect(project);
  });
  after(async () => {
    await session.close();
    removeDir(project);
  });

  it("tools/list schemas are portable: no type arrays, no keyword-less items (nullable fields as anyOf)", async () => {
    const { tools } = await session.client.listTools();
    const problems = tools.flatMap((tool) => [
      ...unportable(tool.inputSchema, `${tool.name}.inputSchema`),
      ...unportable(tool.outputSchema, `${tool.name}.outputSchema`),
    ]);
    assert.deepEqual(problems, []);
    const artifact = tools.find((tool) => tool.name === "artifact_read");
    const nextOffset = artifact?.outputSchema?.properties?.nextOffset as { anyOf?: { type: string }[] } | undefined;
    assert.deepEqual(
      nextOffset?.anyOf?.map((branch) => branch.type),
      ["integer", "null"],
      "a nullable field is anyOf with one type per branch",
    );
    assert.ok(!JSON.stringify(tools).includes("9007199254740991"), "no default safe-integer bounds");
    // Output counts carry no `minimum` (their names say it); 1-based positions and the priority scale keep theirs.
    const check = tools.find((tool) => tool.name === "check_project")?.outputSchema as unknown as {
      properties: Record<string, object>;
      $defs: Record<string, { properties: Record<string, object> }>;
    };
    assert.deepEqual(check.properties.totalIssues, { type: "integer" });
    assert.deepEqual(check.$defs.Issue?.properties.line, { type: "integer", minimum: 1 });
    assert.deepEqual(check.$defs.Cluster?.properties.priority, { type: "integer", minimum: 1, maximum: 5, description: "1 = fix first" });
    const input = tools.find((tool) => tool.name === "artifact_read")?.inputSchema.properties?.offset as { minimum?: number };
    assert.equal(input.minimum, 0, "input bounds stay: a caller must meet them");
  });

  it("tools/list is lean: shared shapes are written once per output schema ($defs + $ref) and Ajv compiles every schema", async () => {
    const { tools } = await session.client.listTools();
    // Compiled as the SDK client and MCP Inspector do (Ajv's draft-07 class), and as draft 2020-12 with its
    // meta-schema check on: a keyword either dialect rejects fails here.
    const validators = [new Ajv({ strict: false, validateSchema: false }), new Ajv2020({ strict: false })];
    for (const tool of tools) {
      const { $defs, ...body } = (tool.outputSchema ?? {}) as { $defs?: Record<string, { type?: string }> };
      for (const [shape, marker] of [
        ["Issue", '"issueId"'],
        ["Cluster", '"rootCauseSummary"'],
        ["EngineStatus", '"engine_output_exceeded"'],
      ] as const) {
        assert.ok(!JSON.stringify(body).includes(marker), `${tool.name}: ${shape} only under $defs`);
      }
      if (tool.name.startsWith("check_")) assert.deepEqual([$defs?.Issue?.type, $defs?.Cluster?.type], ["object", "object"]);
      for (const ajv of validators) {
        assert.doesNotThrow(() => ajv.compile(tool.outputSchema as object), tool.name);
        assert.doesNotThrow(() => ajv.compile(tool.inputSchema), `${tool.name} input`);
      }
    }
    for (const compact of [false, true]) {
      const bytes = (mode: "both" | "text") => JSON.stringify({ tools: TOOLS.map((tool) => listEntry(tool, { mode, compact })) }).length;
      assert.ok(bytes("text") <= 9 * 1024, `text mode tools/list ${bytes("text")} B`);
      // 71,868 B before shapes were shared, 48,257 B before output schemas lost self-evident descriptions and count
      // bounds, 41,831 B before the lean post-check of after_edit_check and apply_diagnostic_fix (38,818 B after; every
      // tool keeps its typed result), 40,410 B with `elsewhere` (issue 36: an edit's errors in other files, a shape in
      // the four check results), 42,969 B with engine fixes (issue 35: fixKind on every Issue shape, preview by issues,
      // apply's rollback), 44,116 B with deno lint (`engines.deno`, `cache.deno`) and the named files first (status
      // `pending`, the `pending` field); a guard, with ~2 % headroom, against any of them coming back. DESIGN §11's
      // 24 KB is not reached.
      assert.ok(bytes("both") <= 45_000, `both mode tools/list ${bytes("both")} B`);
    }
  });

  it("accepts absolute paths inside the root, normalized to project-relative (the SDK client validates every output)", async () => {
    const relative = structured<CheckResponse>(await call(session.client, "check_files", { files: ["src/search.ts"] }));
    const absolute = structured<CheckResponse>(await call(session.client, "check_files", { files: [join(project, "src", "search.ts")] }));
    const places = async (response: CheckResponse) => (await everyIssue(session, response)).map((issue) => `${issue.file}:${issue.line} ${issue.rule}`).sort();
    assert.deepEqual(await places(absolute), await places(relative));
    assert.ok((await places(absolute)).every((place) => place.startsWith("src/search.ts:")));
    const wholeDir = structured<CheckResponse>(await call(session.client, "check_project", { paths: [join(project, "src")] }));
    assert.equal(wholeDir.totalIssues, 12);
    const rootItself = structured<CheckResponse>(await call(session.client, "check_project", { paths: [project] }));
    assert.equal(rootItself.totalIssues, 12);
    const edited = structured<{ delta: { introduced: unknown[] } }>(
      await call(session.client, "after_edit_check", { files: [join(project, "src", "search.ts")] }),
    );
    assert.deepEqual(edited.delta.introduced, []);
    const live = structured<{ files: { file: string }[] }>(await call(session.client, "get_live_diagnostics", { files: [join(project, "src", "search.ts")] }));
    assert.deepEqual(
      live.files.map((entry) => entry.file),
      ["src/search.ts"],
    );
  });

  it("still refuses absolute paths outside the root with invalid_path, including a sibling sharing its prefix", async () => {
    const sibling = `${project}-sibling`;
    mkdirSync(sibling);
    writeFileSync(join(sibling, "a.ts"), "export const a = 1;\n");
    try {
      for (const path of ["/etc", sibling, join(sibling, "a.ts")]) {
        const error = errorOf(await call(session.client, "check_project", { paths: [path] }));
        assert.equal(error.code, "invalid_path", path);
        assert.match(error.message, /absolute and outside the project root/);
      }
      assert.equal(errorOf(await call(session.client, "check_files", { files: [join(sibling, "a.ts")] })).code, "invalid_path");
    } finally {
      removeDir(sibling);
    }
  });
});
