import { z } from "zod";
import { plural } from "./cluster-text.ts";
import {
  CheckResponseSchema,
  ElsewhereSchema,
  EnginesSchema,
  LoopWarningSchema,
  NotCheckedSchema,
  PendingSchema,
  type AfterEditDelta,
  type CheckResponse,
} from "./contracts.ts";

// The check after an edit (after_edit_check, apply_diagnostic_fix) is lean: the delta already lists what the edit
// introduced in full, and the whole check (clusters, every issue, cache) is one get_diagnostic_snapshot away by its
// checkId. What decides truth stays: status, engines and notChecked, so "clean" is never inferred from a delta.

const postCheckCore = {
  status: CheckResponseSchema.shape.status,
  checkId: z.string(),
  engines: EnginesSchema,
  loopWarning: LoopWarningSchema.nullable(),
  nextStep: z.string().optional(),
  notChecked: z.array(NotCheckedSchema).optional(),
  elsewhere: ElsewhereSchema.optional(),
  pending: PendingSchema.optional(),
};

/** The lean check of after_edit_check and apply_diagnostic_fix (their delta rides beside it). */
export const PostCheckSchema = z
  .object({ schemaVersion: z.literal("1.3"), ...postCheckCore, totalIssues: z.number().int().min(0) })
  .strict()
  .meta({ id: "PostCheck" });
export type PostCheck = z.infer<typeof PostCheckSchema>;

/** The same in compact keys. */
export const CompactPostCheckSchema = z
  .object({ v: z.literal("1.3"), ...postCheckCore, total: z.number().int().min(0) })
  .strict()
  .meta({ id: "CompactPostCheck" });
export type CompactPostCheck = z.infer<typeof CompactPostCheckSchema>;

/** Where the issues that remain are listed, now that the post-check does not repeat them. */
function remainingStep(response: CheckResponse, delta: AfterEditDelta | null): string | undefined {
  if (response.totalIssues === 0) return response.nextStep;
  const introduced = delta && !("status" in delta) && delta.introduced.length ? `; delta.introduced has the ${delta.introduced.length} this edit added` : "";
  const where = `${plural(response.totalIssues, "issue")} ${response.totalIssues === 1 ? "remains" : "remain"} in these files (get_diagnostic_snapshot {"checkId":"${response.checkId}"} lists ${response.totalIssues === 1 ? "it" : "them"}${introduced}).`;
  return response.nextStep ? `${where} ${response.nextStep}` : where;
}

/** A check response reduced to its post-check form; nextStep says where the remaining issues are listed. */
export function postCheck(response: CheckResponse, delta: AfterEditDelta | null): PostCheck {
  const nextStep = remainingStep(response, delta);
  return {
    schemaVersion: response.schemaVersion,
    status: response.status,
    checkId: response.checkId,
    engines: response.engines,
    totalIssues: response.totalIssues,
    loopWarning: response.loopWarning,
    ...(nextStep ? { nextStep } : {}),
    ...(response.notChecked ? { notChecked: response.notChecked } : {}),
    ...(response.elsewhere ? { elsewhere: response.elsewhere } : {}),
    ...(response.pending ? { pending: response.pending } : {}),
  };
}

/** Compact keys: v and total. */
export function compactPostCheck(check: PostCheck): CompactPostCheck {
  const { schemaVersion, totalIssues, ...rest } = check;
  return { v: schemaVersion, ...rest, total: totalIssues };
}
