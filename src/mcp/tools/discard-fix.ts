import { z } from "zod";
import { WorkflowStaleSchema } from "../../core/contracts.ts";
import { DiscardResultSchema } from "../../core/fix-contracts.ts";
import { plainShape } from "../respond.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

/** discard_diagnostic_fix: forget a prepared transaction. */
export const discardFixTool = defineTool({
  name: "discard_diagnostic_fix",
  title: "Discard a fix",
  description: "Forget a previewed transaction; writes nothing.",
  input: z.object({ transactionId: z.string().min(1).max(200) }).strict(),
  result: plainShape(DiscardResultSchema, { summary: () => "Discarded; nothing was written." }),
  stale: WorkflowStaleSchema,
  annotations: READ_ONLY,
  handle: (args, { api }) => api.discard(args),
});
