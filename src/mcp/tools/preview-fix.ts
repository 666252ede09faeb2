import { z } from "zod";
import { FixKindSchema } from "../../core/contracts.ts";
import { InvalidArgumentsError } from "../../core/errors.ts";
import { PreviewResultSchema } from "../../core/fix-contracts.ts";
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

const reference = z.string().min(1).max(200);

/** preview_diagnostic_fix: hold a multi-file fix as a transaction; writes nothing. */
export const previewFixTool = defineTool({
  name: "preview_diagnostic_fix",
  title: "Preview a fix",
  description:
    `Hold a fix as a transaction; writes nothing. Exactly one of: patches (whole files, 1-${MAX_PATCHES}, ≤ ${MAX_REQUEST_BYTES / 1024 / 1024} MiB); ` +
    "issueIds or clusterId (of the latest check or checkId) or files (+ rules): the engines' own edits, as diffs. " +
    "Then apply_diagnostic_fix {transactionId, confirm: true}.",
  input: z
    .object({
      patches: z.array(patch).min(1).max(MAX_PATCHES).optional(),
      issueIds: z.array(reference).min(1).max(512).optional(),
      clusterId: reference.optional(),
      files: z.array(z.string().min(1).max(4096)).min(1).max(512).optional(),
      rules: z.array(reference).min(1).max(100).optional().describe("With files: only these rules"),
      kinds: z.array(FixKindSchema).min(1).max(2).optional().describe('Engine edits to use; default ["safe"]'),
      checkId: reference.optional(),
    })
    .strict(),
  result: plainShape(PreviewResultSchema, {
    dataFields: ["files"],
    summary: (result) => {
      const added = result.files.reduce((sum, file) => sum + file.addedLines, 0);
      const removed = result.files.reduce((sum, file) => sum + file.removedLines, 0);
      const left = result.notFixed?.length ? `; ${result.notFixed.length} asked issue(s) not fixed` : "";
      return `Transaction ${result.transactionId}: ${result.files.length} file(s), +${added} −${removed} lines${left}; nothing written yet.`;
    },
  }),
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  handle: (args, { api }) => {
    const { patches, issueIds, clusterId, files, rules, kinds, checkId } = args;
    const given = [patches, issueIds, clusterId, files].filter((value) => value !== undefined).length;
    if (given !== 1) throw new InvalidArgumentsError("Give exactly one of patches, issueIds, clusterId or files");
    if (patches) {
      if (rules || kinds || checkId) throw new InvalidArgumentsError("rules, kinds and checkId go with issueIds, clusterId or files, not patches");
      return api.preview({ patches });
    }
    if (rules && !files) throw new InvalidArgumentsError("rules go with files");
    return api.preview({
      ...(issueIds ? { issueIds } : {}),
      ...(clusterId !== undefined ? { clusterId } : {}),
      ...(files ? { files } : {}),
      ...(rules ? { rules } : {}),
      ...(kinds ? { kinds } : {}),
      ...(checkId !== undefined ? { checkId } : {}),
    });
  },
});
