import { z } from "zod";
import { ArtifactChunkSchema } from "../../core/contracts.ts";
import { defineTool, READ_ONLY } from "../tool.ts";

/** The largest chunk whose base64 form (4/3 larger) still fits inside the structured size bound. */
export function maxChunkBytes(structuredMaxBytes: number): number {
  return Math.floor(structuredMaxBytes * 0.7);
}

/** artifact_read: the full value of an oversized result, in base64 chunks. */
export const artifactReadTool = defineTool({
  name: "artifact_read",
  title: "Read artifact",
  description:
    "Read the full value of a result that exceeded the size bound (its incomplete.artifactId). Returns base64 chunks: continue with " +
    "nextOffset until eof, then decode and concatenate to get the JSON.",
  input: z
    .object({
      artifactId: z.string().min(1).max(100).describe("incomplete.artifactId from an oversized result"),
      offset: z.number().int().min(0).optional().describe("Byte offset to start at (default 0)"),
      maxBytes: z.number().int().min(1).optional().describe("Bytes to return (default and maximum: 70% of structuredMaxBytes)"),
    })
    .strict(),
  output: () => ArtifactChunkSchema,
  annotations: READ_ONLY,
  handle: async (args, { artifacts, structuredMaxBytes }) => {
    const limit = maxChunkBytes(structuredMaxBytes);
    const chunk = await artifacts.read(args.artifactId, args.offset ?? 0, Math.min(args.maxBytes ?? limit, limit));
    const end = chunk.nextOffset ?? chunk.totalBytes;
    return {
      structured: { ...chunk },
      summary: `bytes ${chunk.offset}–${end} of ${chunk.totalBytes}${chunk.eof ? " (end)" : `; next offset ${chunk.nextOffset}`}`,
    };
  },
});
