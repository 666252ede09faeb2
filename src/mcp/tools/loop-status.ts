import { z } from "zod";
import { LoopStatusSchema, withSizeBound } from "../../core/contracts.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

/** The fields that go null when the status is over the size bound. */
const DATA_FIELDS = ["signatures", "fileRuleChurns"] as const;

/** get_loop_status: oscillating issue signatures and (file, rule) churn across checks. */
export const loopStatusTool = defineTool({
  name: "get_loop_status",
  title: "Loop status",
  description: "Report issues that were fixed and reintroduced repeatedly, and (file, rule) pairs that keep re-triggering across check_files calls.",
  input: z.object({}).strict(),
  output: () => withSizeBound(LoopStatusSchema, DATA_FIELDS),
  dataFields: () => [...DATA_FIELDS],
  annotations: READ_ONLY,
  handle: async (_args, { service }) => {
    const status = service.loopStatus();
    const summary = status.looping
      ? `Looping: ${status.signatures.length} oscillating signature(s), ${status.fileRuleChurns.length} churning file/rule pair(s).`
      : "No loops detected.";
    return { structured: status, summary };
  },
});
