import { z } from "zod";
import { IngestResultSchema } from "../../core/contracts.ts";
import { MAX_INGEST } from "../../core/lsp.ts";
import { plainShape } from "../respond.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

/** Items are validated one by one (a bad item is refused with a reason, never the whole call), so the schema names the shape only. */
const ITEM = "LSP Diagnostic + {file | uri}; severity 3-4 dropped";

/** ingest_diagnostics: LSP diagnostics from an editor or language server, normalized into issues. */
export const ingestDiagnosticsTool = defineTool({
  name: "ingest_diagnostics",
  title: "Ingest LSP diagnostics",
  description:
    'Hand over your editor\'s LSP diagnostics (0-based ranges, file or file:// uri): they become issues (engine "lsp") with ids, clusters and ' +
    "a snapshot checkId; bad items are rejected one by one.",
  input: z
    .object({
      source: z.string().min(1).max(100).optional().describe("Default source"),
      serverName: z.string().min(1).max(100).optional(),
      // Items are checked one by one (a bad one is refused in `rejected`, not the call); advertised as the objects they are.
      diagnostics: z.array(z.unknown().meta({ description: ITEM, type: "object" })).max(MAX_INGEST),
    })
    .strict(),
  result: plainShape(IngestResultSchema, {
    dataFields: ["rejected"],
    summary: (result) => `Ingested ${result.ingested} diagnostic(s) as ${result.checkId}; rejected ${result.rejected.length}.`,
  }),
  annotations: { ...READ_ONLY, idempotentHint: false },
  handle: (args, { api }) => api.ingest(args),
});
