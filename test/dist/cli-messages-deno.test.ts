// The CLI's message under Deno without permissions (test/e2e/cli-messages.test.ts has the others).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { it } from "node:test";
import { BUNDLE, CLEAN_PATH, DENO, fixture } from "../helpers.ts";

it("under Deno without permissions: what was refused and the deno run line that works, no stack trace", () => {
  const result = spawnSync(DENO, ["run", BUNDLE, "check"], {
    cwd: fixture("clean"),
    encoding: "utf8",
    input: "",
    env: { PATH: CLEAN_PATH, HOME: process.env.HOME ?? "", SIGNALINT_DAEMON: "0" },
  });
  assert.equal(result.status, 70);
  assert.match(
    result.stderr,
    /^signalint-mcp: Deno refused a permission Signalint needs \(.+\)\. Run it with: deno run --allow-read --allow-write --allow-run --allow-env --allow-sys --allow-net /,
  );
  assert.doesNotMatch(result.stderr, /\n\s+at /, "no stack trace");
});
