import { z } from "zod";
import { plural } from "../../core/cluster-text.ts";
import { IssueDetailSchema, StaleSchema } from "../../core/contracts.ts";
import { InvalidArgumentsError, quoteInput } from "../../core/errors.ts";
import { plainShape } from "../respond.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

const reference = z.string().min(1).max(200);

/** get_issue_detail: every issue of a cluster, or one issue by id or id prefix. */
export const issueDetailTool = defineTool({
  name: "get_issue_detail",
  title: "Issue detail",
  description: 'Expand exactly one of clusterId or issueId (a 4+ hex prefix works) of the latest check or checkId. {status:"stale"} when gone.',
  input: z.object({ clusterId: reference.optional(), issueId: reference.optional(), checkId: reference.optional() }).strict(),
  result: plainShape(IssueDetailSchema, {
    dataFields: ["issues"],
    // Text mode keeps the original's bare array.
    text: (detail) => detail.issues,
    summary: ({ issues }) => {
      const first = issues[0];
      return `${plural(issues.length, "issue")}${first ? `, first ${first.file}:${first.line} ${first.rule}: ${first.message}` : ""}`;
    },
  }),
  stale: StaleSchema,
  annotations: READ_ONLY,
  handle: async (args, { api }) => {
    if ((args.clusterId === undefined) === (args.issueId === undefined)) {
      throw new InvalidArgumentsError("Give exactly one of clusterId or issueId");
    }
    if (args.issueId !== undefined && !/^[0-9a-f]{4,64}$/i.test(args.issueId)) {
      throw new InvalidArgumentsError(`issueId ${quoteInput(args.issueId)} is not a hex id or prefix (at least 4 characters)`);
    }
    return api.issueDetail(args);
  },
});
