import { z } from "zod";
import { AfterEditDeltaSchema, CheckResponseSchema, CompactCheckResponseSchema, WorkflowStaleSchema, withSizeBound } from "../../core/contracts.ts";
import { MAX_PATHS } from "../../core/paths.ts";
import { compactCheckResponse } from "../../core/response.ts";
import type { AfterEdit } from "../../service/workflow/after-edit.ts";
import { afterEditCheck } from "../../service/workflow/after-edit.ts";
import { summarizeCheck } from "../summary.ts";
import { defineTool, READ_ONLY, type ToolOutput } from "../tool.ts";
import { summarizeDelta } from "./compare-diagnostics.ts";

const delta = AfterEditDeltaSchema.nullable().describe("Changes against the baseline, or no_baseline when no earlier check covered the files");
const DATA_FIELDS = ["clusters", "remainingIssues", "delta"] as const;
const COMPACT_DATA_FIELDS = ["clusters", "remaining", "delta"] as const;

/** The check-plus-delta contract, in either key style (shared with apply_diagnostic_fix's `check`). */
export const checkWithDeltaSchema = (compact: boolean) =>
  compact
    ? withSizeBound(CompactCheckResponseSchema.extend({ delta }), COMPACT_DATA_FIELDS)
    : withSizeBound(CheckResponseSchema.extend({ delta }), DATA_FIELDS);

/** The fields of a check-plus-delta that go null over the size bound. */
export const checkWithDeltaFields = (compact: boolean) => [...(compact ? COMPACT_DATA_FIELDS : DATA_FIELDS)];

/** The structured value of a check plus its delta. */
export function checkWithDelta(result: AfterEdit, compact: boolean): ToolOutput {
  const value = compact ? compactCheckResponse(result.response) : result.response;
  const summary = `${summarizeCheck(value)}\nDelta: ${result.delta ? summarizeDelta(result.delta) : "not available."}`;
  return { structured: { ...value, delta: result.delta }, summary };
}

/** after_edit_check: check_files plus what changed since the baseline. */
export const afterEditCheckTool = defineTool({
  name: "after_edit_check",
  title: "After-edit check",
  description:
    "After editing, check those files and get the delta against baselineCheckId (default: this server's previous check that covered them): " +
    "introduced, resolved and unchanged issues, robust to line shifts. The loop: check → keep its checkId → edit → after_edit_check → read delta.",
  input: z
    .object({
      files: z.array(z.string()).min(1).max(MAX_PATHS).describe("Project-relative files you edited (1 to 512)"),
      baselineCheckId: z.string().min(1).max(200).optional().describe("Compare against this check (default: the previous check covering these files)"),
    })
    .strict(),
  output: (compact) => z.union([checkWithDeltaSchema(compact), WorkflowStaleSchema]),
  dataFields: checkWithDeltaFields,
  annotations: READ_ONLY,
  handle: async (args, { service, compact, signal, onEvent }) => {
    const result = await afterEditCheck(service, args.files, { baselineCheckId: args.baselineCheckId, signal, onEvent });
    if ("status" in result) return { structured: result, summary: result.message };
    return checkWithDelta(result, compact);
  },
});
