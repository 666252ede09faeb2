import { z } from "zod";
import { LoopStatusSchema } from "../../core/contracts.ts";
import { plainShape } from "../respond.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

/** get_loop_status: oscillating issue signatures and (file, rule) churn across checks. */
export const loopStatusTool = defineTool({
  name: "get_loop_status",
  title: "Loop status",
  description: "Issues fixed and reintroduced repeatedly, and (file, rule) pairs that keep re-triggering across check_files.",
  input: z.object({}).strict(),
  result: plainShape(LoopStatusSchema, {
    dataFields: ["signatures", "fileRuleChurns"],
    summary: (status) =>
      status.looping
        ? `Looping: ${status.signatures.length} oscillating signature(s), ${status.fileRuleChurns.length} churning file/rule pair(s).`
        : "No loops detected.",
  }),
  annotations: READ_ONLY,
  handle: (_args, { api }) => api.loopStatus(),
});
