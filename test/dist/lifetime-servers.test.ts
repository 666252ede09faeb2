// Process lifetime of the server under Deno and as the standalone binary (test/e2e/lifetime.test.ts: on Node).
import { cancelledCheckTest, describeLifetime, serverLifetimeTests } from "../e2e/lifetime-cases.ts";

describeLifetime((projects) => {
  serverLifetimeTests("deno", projects);
  serverLifetimeTests("binary", projects);
  cancelledCheckTest("deno", projects);
});
