// Process lifetime of the server under Deno and as the standalone binary (test/e2e/lifetime.test.ts: on Node).
import { join } from "node:path";
import { after, describe } from "node:test";
import { cancelledCheckTest, killMarked, serverLifetimeTests } from "../e2e/lifetime-cases.ts";
import { removeDir } from "../helpers.ts";

describe("process lifetime: nothing outlives the server", { skip: process.platform !== "linux" && "counts processes through /proc" }, () => {
  const projects: string[] = [];
  after(() => {
    for (const project of projects) killMarked(join(project, "pids.txt"));
    projects.forEach(removeDir);
  });

  serverLifetimeTests("deno", projects);
  serverLifetimeTests("binary", projects);
  cancelledCheckTest("deno", projects);
});
