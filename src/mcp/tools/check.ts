import { z } from "zod";
import { MAX_PATHS } from "../../core/paths.ts";
import { CHECK_RESULT } from "../results.ts";
import { defineTool, READ_ONLY, type ToolContext } from "../tool.ts";

const pathList = z.array(z.string()).max(MAX_PATHS);

/** The request's cancellation and progress sink, for the service. */
const requestOf = ({ signal, onEvent }: ToolContext) => ({ signal, onEvent });

/** check_project: every enabled engine over project-relative paths (default the whole project). */
export const checkProjectTool = defineTool({
  name: "check_project",
  title: "Check project",
  description:
    "Run the project's own Oxlint, tsc, Biome and ESLint on project-relative paths; issues clustered by root cause. " +
    "get_issue_detail {clusterId} lists a cluster's issues.",
  input: z.object({ paths: pathList.optional().describe('Default ["."]') }).strict(),
  result: CHECK_RESULT,
  annotations: READ_ONLY,
  handle: async (args, context) => (await context.api.check({ paths: args.paths ?? ["."], incremental: false }, requestOf(context))).response,
});

/** check_files: the same check limited to files the agent just edited. */
export const checkFilesTool = defineTool({
  name: "check_files",
  title: "Check files",
  description: "Check files after editing them: linters on these files, tsc on their program (edits elsewhere count); only these files' issues.",
  input: z.object({ files: pathList.min(1).describe("Project-relative files") }).strict(),
  result: CHECK_RESULT,
  annotations: READ_ONLY,
  handle: async (args, context) => (await context.api.check({ paths: args.files, incremental: true }, requestOf(context))).response,
});
