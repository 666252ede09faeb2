import { z } from "zod";
import { WorkflowStaleSchema } from "../../core/contracts.ts";
import { APPLIED_RESULT } from "../results.ts";
import { defineTool } from "../tool.ts";

/** apply_diagnostic_fix: write a previewed transaction all-or-nothing, then check the touched files. */
export const applyFixTool = defineTool({
  name: "apply_diagnostic_fix",
  title: "Apply a fix",
  description:
    "Write a previewed transaction, all files or none (journaled; a crash is rolled back). Needs confirm: true; refused with drift if a file changed. " +
    "Returns after_edit_check of the files and its delta; with verify, rolledBack and why when the fix made things worse.",
  input: z
    .object({
      transactionId: z.string().min(1).max(200),
      confirm: z.boolean().optional().describe("Must be true"),
      baselineCheckId: z.string().min(1).max(200).optional(),
      verify: z.boolean().optional().describe("Roll back when errors rise or a fixed issue stays; default true for engine fixes"),
    })
    .strict(),
  result: APPLIED_RESULT,
  stale: WorkflowStaleSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  handle: async (args, { api }) => {
    const outcome = await api.apply(args);
    if ("status" in outcome) return outcome;
    const { files, result, postCheckError, rollback } = outcome;
    return {
      files,
      response: result?.response ?? null,
      delta: result?.delta ?? null,
      ...(postCheckError ? { postCheckError } : {}),
      ...(rollback ? { rollback } : {}),
    };
  },
});
