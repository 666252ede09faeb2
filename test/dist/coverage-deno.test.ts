// The coverage test that depends on the runtime, under Deno (test/e2e/coverage.test.ts runs it on Node).
import { after, describe } from "node:test";
import { subdirectoryServerTest } from "../e2e/coverage-project.ts";
import { removeDir } from "../helpers.ts";

describe("the state directory is only at the project root", () => {
  const dirs: string[] = [];
  after(() => dirs.forEach(removeDir));

  subdirectoryServerTest("deno", dirs);
});
