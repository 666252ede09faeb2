import { z } from "zod";
import { PreviewResultSchema, withSizeBound } from "../../core/contracts.ts";
import { MAX_PATCHES, MAX_REQUEST_BYTES } from "../../service/fix/transactions.ts";
import { defineTool } from "../tool.ts";

const patch = z
  .object({
    file: z.string().min(1).max(4096).describe("Project-relative (or absolute, inside the root) path of an existing file"),
    originalContent: z.string().describe("The file's exact current content (a mismatch is refused as drift)"),
    patchedContent: z.string().describe("The full new content"),
    description: z.string().max(1000).optional().describe("What this change fixes"),
  })
  .strict();

/** preview_diagnostic_fix: hold a multi-file fix as a transaction; writes nothing. */
export const previewFixTool = defineTool({
  name: "preview_diagnostic_fix",
  title: "Preview a fix",
  description:
    `Prepare a fix of 1 to ${MAX_PATCHES} files (each once, whole request at most ${MAX_REQUEST_BYTES / 1024 / 1024} MiB) as a transaction and get its id and line counts; writes nothing. ` +
    "Refused with code drift when a file no longer has originalContent. Then apply_diagnostic_fix {transactionId, confirm: true}.",
  input: z.object({ patches: z.array(patch).min(1).max(MAX_PATCHES).describe(`1 to ${MAX_PATCHES} whole-file patches`) }).strict(),
  output: () => withSizeBound(PreviewResultSchema, ["files"]),
  dataFields: () => ["files"],
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handle: async (args, { service }) => {
    const result = await service.transactions.preview(args.patches);
    const added = result.files.reduce((sum, file) => sum + file.addedLines, 0);
    const removed = result.files.reduce((sum, file) => sum + file.removedLines, 0);
    return {
      structured: { ...result },
      summary: `Transaction ${result.transactionId}: ${result.files.length} file(s), +${added} −${removed} lines; nothing written yet.`,
    };
  },
});
