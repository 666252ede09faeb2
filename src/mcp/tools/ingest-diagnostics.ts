import { z } from "zod";
import { IngestResultSchema, withSizeBound } from "../../core/contracts.ts";
import { MAX_INGEST } from "../../core/lsp.ts";
import { ingestDiagnostics } from "../../service/workflow/ingest.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

/** Items are validated one by one (a bad item is refused with a reason, never the whole call), so the schema names the shape only. */
const ITEM =
  "An LSP Diagnostic plus where it is: {file | uri (file://), range:{start:{line, character}, end:{line, character}} (0-based), " +
  "severity? (1 error, 2 warning; 3 information and 4 hint are dropped and counted in rejected), code? (string | number | {value}), source?, message}";

/** ingest_diagnostics: LSP diagnostics from an editor or language server, normalized into issues. */
export const ingestDiagnosticsTool = defineTool({
  name: "ingest_diagnostics",
  title: "Ingest LSP diagnostics",
  description:
    "Hand Signalint the LSP Diagnostic objects your editor or language server already has (0-based ranges, file or file:// uri, severity 1–4, code). " +
    'They become issues with engine "lsp" and their source, get ids, clusters and loop memory, and a snapshot checkId; bad items are refused one by one.',
  input: z
    .object({
      source: z.string().min(1).max(100).optional().describe("Default source for diagnostics without one"),
      serverName: z.string().min(1).max(100).optional().describe("The language server's name (the live view keeps one observation per server)"),
      // Items are checked one by one (a bad one is refused in `rejected`, not the call); advertised as the objects they are.
      diagnostics: z
        .array(z.unknown().meta({ description: ITEM, type: "object" }))
        .max(MAX_INGEST)
        .describe(`Up to ${MAX_INGEST} LSP diagnostics`),
    })
    .strict(),
  output: () => withSizeBound(IngestResultSchema, ["rejected"]),
  dataFields: () => ["rejected"],
  annotations: { ...READ_ONLY, idempotentHint: false },
  handle: async (args, { service }) => {
    const result = await ingestDiagnostics(service, args);
    return { structured: { ...result }, summary: `Ingested ${result.ingested} diagnostic(s) as ${result.checkId}; rejected ${result.rejected.length}.` };
  },
});
