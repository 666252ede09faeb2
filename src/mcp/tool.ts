import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { PayloadMode } from "../core/config.ts";
import type { Stale, WorkflowStale } from "../core/contracts.ts";
import type { ServiceApi } from "../service/api.ts";
import type { CheckEvent } from "../service/job/check-events.ts";
import { advertisedSchema, respond, toErrorResult, type ResultShape } from "./respond.ts";

/** Server-wide facts a handler may need. */
export interface ToolContext {
  /** The project's service: its daemon's, or one in this process (the same answers either way). */
  api: ServiceApi;
  projectRoot: string;
  /** Oversized results are saved here and read back in chunks by artifact_read. */
  artifacts: { save: (json: string) => Promise<string> };
  /** Where an unexpected failure's stack goes (stderr). */
  log: (text: string) => void;
  mode: PayloadMode;
  compact: boolean;
  structuredMaxBytes: number;
  /** A read-only server: the writing tools (WRITING_TOOLS) are neither listed nor served. */
  readOnly?: boolean;
  /** The request's cancellation (notifications/cancelled), when it came from a client. */
  signal?: AbortSignal;
  /** Where a check reports its progress, when the request asked for it (a progressToken). */
  onEvent?: (event: CheckEvent) => void;
}

/** MCP tool annotations, set truthfully per tool. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** A tool as its file declares it: arguments, result shape, and the handler between them. */
export interface ToolSpec<Input extends z.ZodType, Output> {
  name: string;
  title: string;
  description: string;
  input: Input;
  result: ResultShape<Output>;
  /** The stale answer the tool may give instead of a result (a normal result, not an error). */
  stale?: z.ZodType<Stale | WorkflowStale>;
  annotations: ToolAnnotations;
  handle: (args: z.output<Input>, context: ToolContext) => Promise<Output | Stale | WorkflowStale>;
}

/** A tool in the registry: its argument and result types are closed over, so a list of tools needs no casts. */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  input: z.ZodType;
  annotations: ToolAnnotations;
  /** The advertised output contract (size-bound form), given the compact setting. */
  output: (compact: boolean) => z.ZodType;
  /** Parse the arguments, run the handler and present its answer for the context's payload mode. */
  call: (args: unknown, context: ToolContext) => Promise<CallToolResult>;
}

/** Annotations of a tool that reads the project and writes only Signalint's own state directory. */
export const READ_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** Declare a tool: the handler's argument type comes from the input schema, its answer type from the result shape. */
export function defineTool<Input extends z.ZodType, Output>(spec: ToolSpec<Input, Output>): ToolDefinition {
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    input: spec.input,
    annotations: spec.annotations,
    output: (compact) => advertisedSchema(spec.result, compact, spec.stale),
    call: async (args, context) => {
      const parsed = spec.input.safeParse(args ?? {});
      if (!parsed.success) return toErrorResult("invalid_arguments", `${spec.name}: ${describeZodError(parsed.error)}`);
      return respond(spec.result, await spec.handle(parsed.data, context), context);
    },
  };
}

/** A property name as error messages show it: 'name', at most 60 characters of it. */
export function quoteKey(key: string): string {
  return `'${key.length > 60 ? `${key.slice(0, 60)}…` : key}'`;
}

function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const at = issue.path.length ? issue.path.map(String).join(".") : "arguments";
      if (issue.code === "unrecognized_keys")
        return `unknown propert${issue.keys.length === 1 ? "y" : "ies"} ${issue.keys.slice(0, 5).map(quoteKey).join(", ")}`;
      return `${at.length > 100 ? `${at.slice(0, 100)}…` : at}: ${issue.message.slice(0, 200)}`;
    })
    .slice(0, 5)
    .join("; ");
}
