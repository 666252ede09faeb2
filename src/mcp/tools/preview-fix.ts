import { z } from "zod";
import { PreviewResultSchema } from "../../core/contracts.ts";
import { MAX_PATCHES, MAX_REQUEST_BYTES } from "../../service/fix/transactions.ts";
import { plainShape } from "../respond.ts";
import { defineTool } from "../tool.ts";

const patch = z
  .object({
    file: z.string().min(1).max(4096),
    originalContent: z.string().describe("Exact current content (else drift)"),
    patchedContent: z.string().describe("Full new content"),
    description: z.string().max(1000).optional(),
  })
  .strict();

/** preview_diagnostic_fix: hold a multi-file fix as a transaction; writes nothing. */
export const previewFixTool = defineTool({
  name: "preview_diagnostic_fix",
  title: "Preview a fix",
  description:
    `Hold a whole-file fix of 1-${MAX_PATCHES} files (≤ ${MAX_REQUEST_BYTES / 1024 / 1024} MiB) as a transaction; writes nothing. ` +
    "Then apply_diagnostic_fix {transactionId, confirm: true}.",
  input: z.object({ patches: z.array(patch).min(1).max(MAX_PATCHES) }).strict(),
  result: plainShape(PreviewResultSchema, {
    dataFields: ["files"],
    summary: (result) => {
      const added = result.files.reduce((sum, file) => sum + file.addedLines, 0);
      const removed = result.files.reduce((sum, file) => sum + file.removedLines, 0);
      return `Transaction ${result.transactionId}: ${result.files.length} file(s), +${added} −${removed} lines; nothing written yet.`;
    },
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handle: (args, { api }) => api.preview(args),
});
