import { z } from "zod";
import { CompactSnapshotSchema, SnapshotSchema, WorkflowStaleSchema, withSizeBound } from "../../core/contracts.ts";
import { publicSnapshot } from "../../service/history/snapshots.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

/** The fields that go null when a snapshot is over the size bound. */
const DATA_FIELDS = ["clusters", "issues"] as const;

/** get_diagnostic_snapshot: the immutable record of one check. */
export const diagnosticSnapshotTool = defineTool({
  name: "get_diagnostic_snapshot",
  title: "Diagnostic snapshot",
  description:
    "Return the immutable snapshot of one check by checkId: tool, scope, engines, clusters, every issue, cache use and duration. " +
    'Every check records one (the last 50 are kept, across restarts); older ids answer {status:"stale", code:"check_expired"}.',
  input: z.object({ checkId: z.string().min(1).max(200).describe("The checkId of any check, ingest or apply") }).strict(),
  output: (compact) => z.union([compact ? withSizeBound(CompactSnapshotSchema, DATA_FIELDS) : withSizeBound(SnapshotSchema, DATA_FIELDS), WorkflowStaleSchema]),
  dataFields: () => [...DATA_FIELDS],
  annotations: READ_ONLY,
  handle: async (args, { service, compact }) => {
    const found = service.snapshots.find(args.checkId);
    if ("status" in found) return { structured: found, summary: found.message };
    return {
      structured: publicSnapshot(found, compact),
      summary: `Snapshot ${found.checkId} (${found.tool} of ${found.scope.join(", ")}, ${found.createdAt}): ${found.issues.length} issue(s) in ${found.clusters.length} cluster(s).`,
    };
  },
});
