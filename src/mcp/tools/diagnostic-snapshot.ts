import { z } from "zod";
import { WorkflowStaleSchema } from "../../core/contracts.ts";
import { SNAPSHOT_RESULT } from "../results.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

/** get_diagnostic_snapshot: the immutable record of one check. */
export const diagnosticSnapshotTool = defineTool({
  name: "get_diagnostic_snapshot",
  title: "Diagnostic snapshot",
  description: "The immutable record of one check: tool, scope, engines, clusters, every issue, cache, duration. The last 50 are kept.",
  input: z.object({ checkId: z.string().min(1).max(200) }).strict(),
  result: SNAPSHOT_RESULT,
  stale: WorkflowStaleSchema,
  annotations: READ_ONLY,
  handle: (args, { api }) => api.snapshot(args),
});
