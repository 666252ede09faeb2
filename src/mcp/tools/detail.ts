import { z } from "zod";
import { IssueDetailResultSchema } from "../../core/contracts.ts";
import { InvalidArgumentsError, quoteInput } from "../../core/errors.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

const reference = z.string().min(1).max(200);

/** get_issue_detail: every issue of a cluster, or one issue by id or id prefix. */
export const issueDetailTool = defineTool({
  name: "get_issue_detail",
  title: "Issue detail",
  description:
    "Expand exactly one of clusterId or issueId (a prefix of at least 4 hex characters works) from the latest check, or from checkId. " +
    'Answers {status:"stale", code} when the reference no longer exists.',
  input: z
    .object({
      clusterId: reference.optional().describe("A clusterId from a check response"),
      issueId: reference.optional().describe("An issueId or a unique prefix of one"),
      checkId: reference.optional().describe("Which check to read (default: the latest)"),
    })
    .strict(),
  output: () => IssueDetailResultSchema,
  dataFields: () => ["issues"],
  annotations: READ_ONLY,
  handle: async (args, { service }) => {
    if ((args.clusterId === undefined) === (args.issueId === undefined)) {
      throw new InvalidArgumentsError("Give exactly one of clusterId or issueId");
    }
    if (args.issueId !== undefined && !/^[0-9a-f]{4,64}$/i.test(args.issueId)) {
      throw new InvalidArgumentsError(`issueId ${quoteInput(args.issueId)} is not a hex id or prefix (at least 4 characters)`);
    }
    const result = service.issueDetail(args);
    if ("status" in result) return { structured: result, summary: result.message };
    const count = result.issues.length;
    const first = result.issues[0];
    return {
      structured: result,
      textValue: result.issues,
      summary: `${count} issue${count === 1 ? "" : "s"}${first ? `, first ${first.file}:${first.line} ${first.rule}: ${first.message}` : ""}`,
    };
  },
});
