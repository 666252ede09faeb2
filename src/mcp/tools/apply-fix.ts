import { z } from "zod";
import {
  AfterEditDeltaSchema,
  CheckResponseSchema,
  CompactCheckResponseSchema,
  PostCheckErrorSchema,
  WorkflowStaleSchema,
  withSizeBound,
} from "../../core/contracts.ts";
import { compactCheckResponse } from "../../core/response.ts";
import { summarizeCheck } from "../summary.ts";
import { defineTool } from "../tool.ts";
import { summarizeDelta } from "./compare-diagnostics.ts";

const DATA_FIELDS = ["check", "delta"] as const;
const applied = (compact: boolean) =>
  withSizeBound(
    z
      .object({
        applied: z.literal(true),
        files: z.array(z.string()).describe("Files written"),
        check: (compact ? CompactCheckResponseSchema : CheckResponseSchema).describe("after_edit_check of the touched files"),
        delta: AfterEditDeltaSchema.nullable().describe(
          "Against baselineCheckId, default the previous check covering these files (no_baseline when there was none)",
        ),
        postCheckError: PostCheckErrorSchema.optional(),
      })
      .strict(),
    DATA_FIELDS,
  );

/** apply_diagnostic_fix: write a previewed transaction all-or-nothing, then check the touched files. */
export const applyFixTool = defineTool({
  name: "apply_diagnostic_fix",
  title: "Apply a fix",
  description:
    "Write a previewed transaction to disk, all files or none (write-ahead journal; a crash mid-apply is rolled back at the next start). " +
    "Needs confirm: true (else error confirmation_required, the transaction stays usable); refused with drift if a file changed since the preview. " +
    "Returns the after_edit_check of the touched files and its delta.",
  input: z
    .object({
      transactionId: z.string().min(1).max(200).describe("From preview_diagnostic_fix"),
      confirm: z.boolean().optional().describe("Must be true to write"),
      baselineCheckId: z.string().min(1).max(200).optional().describe("Delta baseline (default: the previous check covering these files)"),
    })
    .strict(),
  output: (compact) => z.union([applied(compact), WorkflowStaleSchema]),
  dataFields: () => [...DATA_FIELDS],
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  handle: async (args, { service, compact }) => {
    const outcome = await service.transactions.apply(args.transactionId, args);
    if ("status" in outcome) return { structured: outcome, summary: outcome.message };
    if (!outcome.result) {
      const structured = { applied: true, files: outcome.files, check: null, delta: null, postCheckError: outcome.postCheckError };
      return { structured, summary: `Applied ${outcome.files.length} file(s). ${outcome.postCheckError?.message ?? ""}` };
    }
    const { response, delta } = outcome.result;
    const check = compact ? compactCheckResponse(response) : response;
    return {
      structured: { applied: true, files: outcome.files, check, delta },
      summary: `Applied ${outcome.files.length} file(s).\n${summarizeCheck(check)}\nDelta: ${delta ? summarizeDelta(delta) : "not available."}`,
    };
  },
});
