import { z } from "zod";
import { CompareSchema, WorkflowStaleSchema, withSizeBound, type AfterEditDelta } from "../../core/contracts.ts";
import { compareSnapshots } from "../../service/workflow/after-edit.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

/** The fields that go null when a comparison is over the size bound. */
export const DELTA_DATA_FIELDS = ["introduced", "resolved"] as const;

/** One line saying what a delta means (and what it left out). */
export function summarizeDelta(delta: AfterEditDelta): string {
  if ("status" in delta) return delta.message;
  const signed = (value: number) => (value > 0 ? `+${value}` : String(value));
  const left = delta.notCompared?.length ? ` Not compared: ${delta.notCompared.map((entry) => entry.message).join("; ")}.` : "";
  return `${delta.introduced.length} introduced, ${delta.resolved.length} resolved, ${delta.unchangedCount} unchanged (errors ${signed(delta.netErrorDelta)}, warnings ${signed(delta.netWarningDelta)}).${left}`;
}

const checkId = z.string().min(1).max(200);

/** compare_diagnostics: what changed between two checks, robust to line shifts. */
export const compareDiagnosticsTool = defineTool({
  name: "compare_diagnostics",
  title: "Compare diagnostics",
  description:
    "Compare two checks by checkId: introduced and resolved issues, the unchanged count and net error/warning deltas. " +
    "Issues are matched by id, then by file, rule, message and severity at the nearest line, so inserted lines do not count as changes; " +
    "only what both checks checked is compared (engines ok in both, files both covered); the rest is named in notCompared.",
  input: z
    .object({
      baselineCheckId: checkId.describe("The earlier check (e.g. before your edit)"),
      currentCheckId: checkId.describe("The later check"),
    })
    .strict(),
  output: () => z.union([withSizeBound(CompareSchema, DELTA_DATA_FIELDS), WorkflowStaleSchema]),
  dataFields: () => [...DELTA_DATA_FIELDS],
  annotations: READ_ONLY,
  handle: async (args, { service }) => {
    const result = compareSnapshots(service, args.baselineCheckId, args.currentCheckId);
    if ("status" in result) return { structured: result, summary: result.message };
    return { structured: result, summary: summarizeDelta(result) };
  },
});
