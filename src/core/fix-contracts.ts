import { z } from "zod";
import { EngineNameSchema, FixKindSchema, IssueSchema } from "./contracts.ts";

/** One engine's edits in one file of a transaction built from the engines' fixes: which issues they address. */
export const FileFixSchema = z.object({ engine: EngineNameSchema, kind: FixKindSchema, issueIds: z.array(z.string()) }).strict();

/** preview_diagnostic_fix. */
export const PreviewResultSchema = z
  .object({
    transactionId: z.string(),
    expiresAt: z.string(),
    files: z.array(
      z
        .object({
          file: z.string(),
          addedLines: z.number().int().min(0),
          removedLines: z.number().int().min(0),
          diff: z.string().optional(),
          fixes: z.array(FileFixSchema).optional(),
        })
        .strict(),
    ),
    notFixed: z.array(z.object({ issue: z.string(), reason: z.string() }).strict()).optional(),
    verify: z.boolean().optional().describe("Apply rolls back if it made things worse"),
  })
  .strict();
export type PreviewResult = z.infer<typeof PreviewResultSchema>;

/** apply_diagnostic_fix: why the check after a written fix did not run (the files stay written). */
export const PostCheckErrorSchema = z.object({ code: z.string(), message: z.string() }).strict().describe("The fix is written; its check failed");
export type PostCheckError = z.infer<typeof PostCheckErrorSchema>;

/** apply_diagnostic_fix with verify: why the written fix was undone (every file back to its original). */
export const RollbackSchema = z
  .object({
    reason: z.string(),
    introduced: z.array(IssueSchema),
    stillPresent: z.array(z.string()).describe("Issue ids not fixed"),
  })
  .strict();
export type Rollback = z.infer<typeof RollbackSchema>;

/** discard_diagnostic_fix. */
export const DiscardResultSchema = z.object({ discarded: z.literal(true) }).strict();
