import { z } from "zod";
import { PingResultSchema } from "../../core/contracts.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

/** ping: confirms the handshake; its first block is the literal "pong" in every mode. */
export const pingTool = defineTool({
  name: "ping",
  title: "Ping",
  description: "Check that the Signalint server is up. Returns the literal text pong (structured: {pong, projectRoot}).",
  input: z.object({}).strict(),
  output: () => PingResultSchema,
  annotations: READ_ONLY,
  handle: async (_args, { service }) => ({
    structured: { pong: true, projectRoot: service.project.root },
    literalText: "pong",
    summary: `pong (${service.project.root})`,
  }),
});
