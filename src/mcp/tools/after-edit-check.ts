import { z } from "zod";
import { WorkflowStaleSchema } from "../../core/contracts.ts";
import { MAX_PATHS } from "../../core/paths.ts";
import { CHECK_WITH_DELTA_RESULT } from "../results.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

/** after_edit_check: check_files plus what changed since the baseline. */
export const afterEditCheckTool = defineTool({
  name: "after_edit_check",
  title: "After-edit check",
  description:
    "check_files in brief plus the delta against baselineCheckId (default: the previous check covering these files): introduced, resolved, unchanged; " +
    "robust to line shifts. The whole check: get_diagnostic_snapshot {checkId}.",
  input: z
    .object({
      files: z.array(z.string()).min(1).max(MAX_PATHS).describe("Files you edited"),
      baselineCheckId: z.string().min(1).max(200).optional(),
    })
    .strict(),
  result: CHECK_WITH_DELTA_RESULT,
  stale: WorkflowStaleSchema,
  annotations: READ_ONLY,
  handle: (args, { api, signal, onEvent }) => api.afterEdit({ files: args.files, baselineCheckId: args.baselineCheckId }, { signal, onEvent }),
});
