// A check response built by the pure core from raw issues (normalize → cluster → respond), for the core's unit tests.
import { createHash } from "node:crypto";
import { clusterIssues } from "../../src/core/cluster.ts";
import { ENGINE_NAMES, type Engines } from "../../src/core/contracts.ts";
import { normalizeIssues, type RawIssue } from "../../src/core/issues.ts";
import { buildCheckResponse } from "../../src/core/response.ts";

/** The id hash the service uses (sha256, hex). */
export const hash = (text: string) => createHash("sha256").update(text).digest("hex");

/** Every engine disabled but the ones given (built from ENGINE_NAMES: a new engine needs no edit here). */
export function enginesWith(statuses: Partial<Engines> = {}): Engines {
  return { ...(Object.fromEntries(ENGINE_NAMES.map((engine) => [engine, { status: "disabled" }])) as Engines), ...statuses };
}

/** oxlint and tsc ran, the others are disabled. */
export const OK_ENGINES: Engines = enginesWith({ oxlint: { status: "ok" }, tsc: { status: "ok" } });

/** The response of a check that found `rawIssues` (check chk-1 of /p, OK_ENGINES, 10 clusters and 10 remaining at most). */
export function checkResponse(rawIssues: RawIssue[], overrides: Partial<Parameters<typeof buildCheckResponse>[0]> = {}) {
  const issues = normalizeIssues(rawIssues, hash);
  const response = buildCheckResponse({
    checkId: "chk-1",
    projectRoot: "/p",
    engines: OK_ENGINES,
    issues,
    groups: clusterIssues(issues, hash),
    filteredOutIssueCount: 0,
    loopWarning: null,
    maxClusters: 10,
    maxRemainingIssues: 10,
    ...overrides,
  });
  return { response, issues };
}
