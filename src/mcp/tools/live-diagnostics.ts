import { z } from "zod";
import { LiveSchema, SeveritySchema, withSizeBound } from "../../core/contracts.ts";
import { MAX_PATHS } from "../../core/paths.ts";
import { liveDiagnostics } from "../../service/workflow/live.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

const DATA_FIELDS = ["issues", "files"] as const;

/** get_live_diagnostics: the merged current view of engine and ingested diagnostics. */
export const liveDiagnosticsTool = defineTool({
  name: "get_live_diagnostics",
  title: "Live diagnostics",
  description:
    "The latest known issues per file across engine checks and ingested LSP diagnostics, each with its engine (or lsp + source), checkId and observedAt; " +
    "files[].stale is true when the file changed after its newest observation (re-check it). Runs no engine.",
  input: z
    .object({
      files: z.array(z.string()).min(1).max(MAX_PATHS).optional().describe("Project-relative files (default: every file with known issues)"),
      severity: SeveritySchema.optional().describe("Only errors or only warnings"),
    })
    .strict(),
  output: () => withSizeBound(LiveSchema, DATA_FIELDS),
  dataFields: () => [...DATA_FIELDS],
  annotations: READ_ONLY,
  handle: async (args, { service }) => {
    const live = await liveDiagnostics(service, args);
    const stale = live.files.filter((entry) => entry.stale).length;
    return {
      structured: live,
      summary: `${live.issues.length} live issue(s) in ${live.files.length} file(s)${stale ? `; ${stale} stale (changed since observed)` : ""}.`,
    };
  },
});
