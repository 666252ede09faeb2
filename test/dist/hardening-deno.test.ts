// The runtime-dependent hardening tests under Deno (test/e2e/hardening.test.ts runs them on Node).
import { runtimeHardening } from "../e2e/hardening-runtimes.ts";

runtimeHardening("deno");
