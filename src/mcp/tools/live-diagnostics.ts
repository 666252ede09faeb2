import { z } from "zod";
import { LiveSchema, SeveritySchema } from "../../core/contracts.ts";
import { MAX_PATHS } from "../../core/paths.ts";
import { plainShape } from "../respond.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

/** get_live_diagnostics: the merged current view of engine and ingested diagnostics. */
export const liveDiagnosticsTool = defineTool({
  name: "get_live_diagnostics",
  title: "Live diagnostics",
  description:
    "Latest known issues per file from checks and ingested LSP diagnostics, with checkId and observedAt; files[].stale: changed since. Runs no engine.",
  input: z
    .object({
      files: z.array(z.string()).min(1).max(MAX_PATHS).optional().describe("Default: every file with issues"),
      severity: SeveritySchema.optional(),
    })
    .strict(),
  result: plainShape(LiveSchema, {
    dataFields: ["issues", "files"],
    summary: (live) => {
      const stale = live.files.filter((entry) => entry.stale).length;
      return `${live.issues.length} live issue(s) in ${live.files.length} file(s)${stale ? `; ${stale} stale (changed since observed)` : ""}.`;
    },
  }),
  annotations: READ_ONLY,
  handle: (args, { api }) => api.live(args),
});
