import { z } from "zod";
import { PingResultSchema } from "../../core/contracts.ts";
import { plainShape } from "../respond.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

/** ping: confirms the handshake; its first block is the literal "pong" in every mode. */
export const pingTool = defineTool({
  name: "ping",
  title: "Ping",
  description: "Is the server up? Text: pong.",
  input: z.object({}).strict(),
  result: plainShape(PingResultSchema, { literalText: "pong", summary: (value) => `pong (${value.projectRoot})` }),
  annotations: READ_ONLY,
  handle: async (_args, { projectRoot }) => ({ pong: true as const, projectRoot }),
});
