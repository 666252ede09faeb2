import { z } from "zod";
import { CheckResponseSchema, CompactCheckResponseSchema, withSizeBound, type CheckResponse } from "../../core/contracts.ts";
import { MAX_PATHS } from "../../core/paths.ts";
import { compactCheckResponse } from "../../core/response.ts";
import { summarizeCheck } from "../summary.ts";
import { defineTool, READ_ONLY, type ToolContext, type ToolOutput } from "../tool.ts";

const pathList = z.array(z.string()).max(MAX_PATHS);

function checkOutput(response: CheckResponse, { compact }: ToolContext): ToolOutput {
  const value = compact ? compactCheckResponse(response) : response;
  return { structured: value as unknown as Record<string, unknown>, summary: summarizeCheck(value) };
}

/** The request's cancellation and progress sink, for the service. */
const requestOf = ({ signal, onEvent }: ToolContext) => ({ signal, onEvent });

/** The fields that go null when a check result is over the size bound, per key style. */
const DATA_FIELDS = ["clusters", "remainingIssues"] as const;
const COMPACT_DATA_FIELDS = ["clusters", "remaining"] as const;
const checkDataFields = (compact: boolean) => [...(compact ? COMPACT_DATA_FIELDS : DATA_FIELDS)];
const checkSchema = (compact: boolean) =>
  compact ? withSizeBound(CompactCheckResponseSchema, COMPACT_DATA_FIELDS) : withSizeBound(CheckResponseSchema, DATA_FIELDS);

/** check_project: every enabled engine over project-relative paths (default the whole project). */
export const checkProjectTool = defineTool({
  name: "check_project",
  title: "Check project",
  description:
    'Run the project\'s own Oxlint, tsc, Biome and ESLint on project-relative paths (default ["."]) and return issues clustered by root cause. ' +
    "Use get_issue_detail with a clusterId for every location of a cluster.",
  input: z.object({ paths: pathList.optional().describe('Project-relative paths (at most 512); default ["."]') }).strict(),
  output: checkSchema,
  dataFields: checkDataFields,
  annotations: READ_ONLY,
  handle: async (args, context) => checkOutput(await context.service.check(args.paths ?? ["."], false, requestOf(context)), context),
});

/** check_files: the same check limited to files the agent just edited. */
export const checkFilesTool = defineTool({
  name: "check_files",
  title: "Check files",
  description:
    "Check specific project-relative files after editing them. Linters run on these files; tsc checks the program they belong to " +
    "(so errors caused by edits elsewhere appear) and only issues in these files are returned.",
  input: z.object({ files: pathList.min(1).describe("Project-relative file paths (1 to 512)") }).strict(),
  output: checkSchema,
  dataFields: checkDataFields,
  annotations: READ_ONLY,
  handle: async (args, context) => checkOutput(await context.service.check(args.files, true, requestOf(context)), context),
});
