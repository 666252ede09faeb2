import { z } from "zod";
import { DiscardResultSchema, WorkflowStaleSchema } from "../../core/contracts.ts";
import { defineTool } from "../tool.ts";

/** discard_diagnostic_fix: forget a prepared transaction. */
export const discardFixTool = defineTool({
  name: "discard_diagnostic_fix",
  title: "Discard a fix",
  description: "Forget a transaction from preview_diagnostic_fix without writing anything.",
  input: z.object({ transactionId: z.string().min(1).max(200).describe("From preview_diagnostic_fix") }).strict(),
  output: () => z.union([DiscardResultSchema, WorkflowStaleSchema]),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  handle: async (args, { service }) => {
    const result = service.transactions.discard(args.transactionId);
    return { structured: result, summary: "status" in result ? result.message : `Discarded ${args.transactionId}.` };
  },
});
