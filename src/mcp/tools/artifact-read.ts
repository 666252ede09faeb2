import { z } from "zod";
import { ArtifactChunkSchema } from "../../core/contracts.ts";
import { plainShape } from "../respond.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

/** The largest chunk whose base64 form (4/3 larger) still fits inside the structured size bound. */
export function maxChunkBytes(structuredMaxBytes: number): number {
  return Math.floor(structuredMaxBytes * 0.7);
}

/** artifact_read: the full value of an oversized result, in base64 chunks. */
export const artifactReadTool = defineTool({
  name: "artifact_read",
  title: "Read artifact",
  description: "Read an oversized result (incomplete.artifactId) in base64 chunks: follow nextOffset until eof, decode, concatenate.",
  input: z
    .object({
      artifactId: z.string().min(1).max(100),
      offset: z.number().int().min(0).optional(),
      maxBytes: z.number().int().min(1).optional().describe("Default and maximum: 70% of structuredMaxBytes"),
    })
    .strict(),
  result: plainShape(ArtifactChunkSchema, {
    summary: (chunk) =>
      `bytes ${chunk.offset}–${chunk.nextOffset ?? chunk.totalBytes} of ${chunk.totalBytes}${chunk.eof ? " (end)" : `; next offset ${chunk.nextOffset}`}`,
  }),
  annotations: READ_ONLY,
  handle: (args, { api, structuredMaxBytes }) => {
    const limit = maxChunkBytes(structuredMaxBytes);
    return api.readArtifact({ artifactId: args.artifactId, offset: args.offset ?? 0, maxBytes: Math.min(args.maxBytes ?? limit, limit) });
  },
});
