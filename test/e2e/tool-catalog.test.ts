import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { PAYLOAD_MODES } from "../../src/core/config.ts";
import { initializeJson, toolListJson } from "../../src/mcp/tool-answers.ts";
import { prepareToolCatalog } from "../../src/mcp/tool-catalog.ts";
import { liveToolList, sdkInitialize } from "./front-answers.ts";

describe("the tool catalog the build embeds", () => {
  it("gives tools/list byte for byte as the zod schemas do, in every payload mode, key style and read-only setting", async () => {
    const catalog = JSON.parse(JSON.stringify(await prepareToolCatalog())); // as embedded: through JSON
    for (const payloadMode of PAYLOAD_MODES)
      for (const compact of [false, true])
        for (const readOnly of [false, true]) {
          const settings = { payloadMode, compact, readOnly };
          assert.equal(toolListJson(catalog.tools, settings), JSON.stringify(liveToolList(settings)), JSON.stringify(settings));
        }
  });

  it("gives initialize as the SDK's Server does, negotiating the version as it does (the client's when supported, else the latest)", async () => {
    const catalog = JSON.parse(JSON.stringify(await prepareToolCatalog()));
    for (const readOnly of [false, true])
      for (const requested of [...SUPPORTED_PROTOCOL_VERSIONS, "1999-01-01"]) {
        const expected = await sdkInitialize(readOnly, requested);
        assert.equal(initializeJson(catalog, readOnly, requested), JSON.stringify(expected), `${readOnly} ${requested}`);
      }
  });
});
