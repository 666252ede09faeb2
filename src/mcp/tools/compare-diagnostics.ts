import { z } from "zod";
import { CompareSchema, WorkflowStaleSchema } from "../../core/contracts.ts";
import { plainShape } from "../respond.ts";
import { summarizeDelta } from "../results.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

const checkId = z.string().min(1).max(200);

/** compare_diagnostics: what changed between two checks, robust to line shifts. */
export const compareDiagnosticsTool = defineTool({
  name: "compare_diagnostics",
  title: "Compare diagnostics",
  description:
    "Compare two checks: introduced and resolved issues, unchanged count, net error/warning deltas. Matched by id, then file/rule/message/severity " +
    "at the nearest line (inserted lines are no change); only what both checked (engines ok in both, files both covered), the rest in notCompared.",
  input: z.object({ baselineCheckId: checkId, currentCheckId: checkId }).strict(),
  result: plainShape(CompareSchema, { dataFields: ["introduced", "resolved"], summary: summarizeDelta }),
  stale: WorkflowStaleSchema,
  annotations: READ_ONLY,
  handle: (args, { api }) => api.compare(args),
});
