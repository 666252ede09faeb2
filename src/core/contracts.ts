import { z } from "zod";

/** Engines Signalint runs itself. */
export const ENGINE_NAMES = ["oxlint", "tsc", "biome", "eslint"] as const;
export const EngineNameSchema = z.enum(ENGINE_NAMES).describe("Engine that reported the issue");
export type EngineName = z.infer<typeof EngineNameSchema>;

export const SeveritySchema = z.enum(["error", "warning"]);
export type Severity = z.infer<typeof SeveritySchema>;

/** One diagnostic after normalization. */
export const NormalizedIssueSchema = z
  .object({
    issueId: z.string().describe("Stable id (short hex prefix; get_issue_detail accepts it)"),
    file: z.string().describe("Project-relative POSIX path"),
    line: z.number().int().min(1),
    col: z.number().int().min(1),
    engine: EngineNameSchema,
    rule: z.string(),
    severity: SeveritySchema,
    message: z.string().max(120).describe("Whitespace-collapsed, at most 120 characters"),
    fixable: z.boolean().describe("True only when the engine supplied a structured fix"),
    clusterId: z.string().nullable().describe("Cluster this issue belongs to, or null"),
    alsoReportedBy: z
      .array(z.object({ engine: EngineNameSchema, rule: z.string() }).strict())
      .optional()
      .describe("Other engines that reported the same problem at the same place (deduplicated)"),
  })
  .strict();
export type NormalizedIssue = z.infer<typeof NormalizedIssueSchema>;

/** An issue as a check response lists it: default-valued fields left out (get_issue_detail and snapshots keep them). */
export const CheckIssueSchema = NormalizedIssueSchema.extend({
  fixable: z.literal(true).optional().describe("Present (true) only when the engine supplied a structured fix"),
  clusterId: z.string().optional().describe("The issue's cluster when it is not among the returned ones; absent otherwise"),
}).strict();
export type CheckIssue = z.infer<typeof CheckIssueSchema>;

export const EngineStatusSchema = z
  .object({
    status: z.enum(["ok", "error", "disabled"]),
    code: z.enum(["timeout", "engine_output_exceeded", "engine_failed", "engine_output_invalid", "engine_partial", "engine_not_found"]).optional(),
    message: z.string().optional(),
    version: z.string().optional(),
  })
  .strict();
export type EngineStatus = z.infer<typeof EngineStatusSchema>;

export const EnginesSchema = z
  .object({
    oxlint: EngineStatusSchema,
    tsc: EngineStatusSchema,
    biome: EngineStatusSchema,
    eslint: EngineStatusSchema,
  })
  .strict();
export type Engines = z.infer<typeof EnginesSchema>;

export const ClusterSchema = z
  .object({
    clusterId: z.string(),
    rootCauseSummary: z.string(),
    ruleIds: z.array(z.string()),
    issueCount: z.number().int().min(2),
    fileCount: z.number().int().min(1),
    priority: z.number().int().min(1).max(5).describe("1 = systemic errors … 5 = fixable or systemic warnings"),
    suggestedAction: z.string(),
    sampleIssueIds: z.array(z.string()),
  })
  .strict();
export type Cluster = z.infer<typeof ClusterSchema>;

export const LoopSignatureSchema = z
  .object({
    signature: z.string(),
    occurrences: z.number().int().min(1),
    hint: z.string(),
  })
  .strict();

export const FileRuleChurnSchema = z
  .object({
    file: z.string(),
    rule: z.string(),
    checkCount: z.number().int().min(1),
    hint: z.string(),
  })
  .strict();

export const LoopWarningSchema = z
  .object({
    signatures: z.array(LoopSignatureSchema),
    fileRuleChurns: z.array(FileRuleChurnSchema),
  })
  .strict();
export type LoopWarning = z.infer<typeof LoopWarningSchema>;

export const EngineCacheSchema = z
  .object({
    hits: z.number().int().min(0).describe("Inputs whose previous result was reused (files, or tsc program files)"),
    misses: z.number().int().min(0).describe("Inputs examined again"),
    mode: z.string().optional().describe("tsc: warm-reused | warm-incremental | warm-full | cli | build-incremental"),
  })
  .strict();

const checkCore = {
  status: z
    .enum(["clean", "issues_found", "error"])
    .describe(
      "error: an engine that applies failed or is missing (other engines' issues are still listed); clean: every applicable engine ran and found nothing",
    ),
  checkId: z.string().describe("Unique per check; pass to get_issue_detail as checkId"),
  engines: EnginesSchema,
  clusters: z.array(ClusterSchema).describe("Priority ascending"),
  truncated: z.boolean().describe("True when more clusters existed than were returned"),
  loopWarning: LoopWarningSchema.nullable(),
  nextStep: z.string().optional().describe("What to do first; absent on a clean check"),
  cache: z
    .object({
      oxlint: EngineCacheSchema.optional(),
      tsc: EngineCacheSchema.optional(),
      biome: EngineCacheSchema.optional(),
      eslint: EngineCacheSchema.optional(),
    })
    .strict()
    .optional()
    .describe("check_files only: cache use per engine that ran"),
};

/** CheckResponse, schema 1.2 (a superset of the original 1.1). */
export const CheckResponseSchema = z
  .object({
    schemaVersion: z.literal("1.2"),
    ...checkCore,
    projectRoot: z.string(),
    totalIssues: z.number().int().min(0).describe("Normalized issue count before truncation"),
    remainingIssues: z.array(CheckIssueSchema).optional().describe("Issues not in a returned cluster (capped); absent when none"),
    omittedIssueCount: z.number().int().min(0).optional().describe("Issues in neither clusters nor remainingIssues; absent when 0"),
    filteredOutIssueCount: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("Issues outside the requested paths or the project root, or ignored by config; absent when 0"),
  })
  .strict();
export type CheckResponse = z.infer<typeof CheckResponseSchema>;

/** The same response with compact keys and no projectRoot. */
export const CompactCheckResponseSchema = z
  .object({
    v: z.literal("1.2"),
    ...checkCore,
    total: z.number().int().min(0),
    remaining: z.array(CheckIssueSchema).optional(),
    omitted: z.number().int().min(0).optional(),
    filteredOut: z.number().int().min(0).optional(),
  })
  .strict();
export type CompactCheckResponse = z.infer<typeof CompactCheckResponseSchema>;

export const PingResultSchema = z.object({ pong: z.literal(true), projectRoot: z.string() }).strict();

export const StaleSchema = z
  .object({
    status: z.literal("stale"),
    code: z.enum(["no_check", "check_unknown", "check_expired", "cluster_not_found", "issue_not_found"]),
    message: z.string(),
  })
  .strict();
export type Stale = z.infer<typeof StaleSchema>;

export const LoopStatusSchema = z
  .object({
    looping: z.boolean(),
    signatures: z.array(LoopSignatureSchema),
    fileRuleChurns: z.array(FileRuleChurnSchema),
  })
  .strict();
export type LoopStatus = z.infer<typeof LoopStatusSchema>;

/** Marks a structured value whose data fields were replaced by null because it exceeded the size bound. */
export const IncompleteSchema = z
  .object({
    reason: z.literal("size"),
    bytes: z.number().int().min(0).describe("Serialized size of the full value"),
    limitBytes: z.number().int().min(0).describe("The structuredMaxBytes bound in force"),
    artifactId: z.string().describe("Read the full value with artifact_read"),
  })
  .strict()
  .describe("Present only when data fields are null because the value was too large");
export type Incomplete = z.infer<typeof IncompleteSchema>;

/**
 * The advertised form of an output schema: the listed data-bearing fields may be null, and an `incomplete` marker
 * may be present (see the size bound in the payload layer).
 */
export function withSizeBound<T extends z.ZodRawShape>(schema: z.ZodObject<T>, dataFields: readonly (keyof T & string)[]): z.ZodObject {
  const nullable: Record<string, z.ZodType> = {};
  for (const field of dataFields) nullable[field] = (schema.shape[field] as z.ZodType).nullable();
  return schema.extend({ ...nullable, incomplete: IncompleteSchema.optional() }).strict();
}

/**
 * An issue in get_issue_detail: lean like a check response's (default-valued fields left out) plus the whole text
 * when the 120-character message had to cut it.
 */
export const DetailIssueSchema = CheckIssueSchema.extend({
  clusterId: z.string().optional().describe("The issue's cluster; absent when it has none or when detail was asked by clusterId"),
  fullMessage: z.string().optional().describe("The engine's whole message (lines kept, e.g. TypeScript's message chain), present when `message` had to cut it"),
}).strict();
export type DetailIssue = z.infer<typeof DetailIssueSchema>;

export const IssueDetailSchema = z.object({ issues: z.array(DetailIssueSchema) }).strict();

export const IssueDetailResultSchema = z.union([withSizeBound(IssueDetailSchema, ["issues"]), StaleSchema]);

export const ArtifactChunkSchema = z
  .object({
    artifactId: z.string(),
    mimeType: z.literal("application/json"),
    offset: z.number().int().min(0),
    totalBytes: z.number().int().min(0),
    nextOffset: z.number().int().min(0).nullable().describe("Offset of the next chunk; null at the end"),
    eof: z.boolean(),
    data: z.string().describe("Base64 of this chunk's bytes; concatenate decoded chunks in order"),
  })
  .strict();

/** The error envelope carried in an isError result's text. */
export interface ErrorEnvelope {
  status: "error";
  code: string;
  message: string;
}

// ---- Agent-workflow contracts (snapshots, compare, after-edit deltas, ingest, live view, fix transactions) ----

/** Stale answers of the workflow tools (a normal result, not an error). */
export const WorkflowStaleSchema = z
  .object({
    status: z.literal("stale"),
    code: z.enum(["no_check", "check_unknown", "check_expired", "transaction_not_found", "transaction_expired"]),
    message: z.string(),
  })
  .strict();
export type WorkflowStale = z.infer<typeof WorkflowStaleSchema>;

/** Issue provenance: a real engine, or "lsp" for diagnostics ingested from an editor or language server. */
export const ProvenanceSchema = z.enum([...ENGINE_NAMES, "lsp"]).describe("Engine that reported the issue; lsp = ingested");
export type Provenance = z.infer<typeof ProvenanceSchema>;

/** A NormalizedIssue that may come from ingest (engine "lsp" plus the diagnostic's source). */
export const WorkflowIssueSchema = NormalizedIssueSchema.extend({
  engine: ProvenanceSchema,
  source: z.string().optional().describe("lsp issues: the diagnostic's source, else the server name"),
}).strict();
export type WorkflowIssue = z.infer<typeof WorkflowIssueSchema>;

const snapshotCore = {
  checkId: z.string(),
  createdAt: z.string().describe("ISO time the snapshot was recorded"),
  tool: z.string().describe("The tool that made this check"),
  scope: z.array(z.string()).describe("Project-relative paths the check covered"),
  engines: EnginesSchema,
  clusters: z.array(ClusterSchema),
  issues: z.array(WorkflowIssueSchema).describe("Every issue of that check"),
  cache: CheckResponseSchema.shape.cache,
  durationMs: z.number().int().min(0),
};

/** get_diagnostic_snapshot: the immutable record of one check. */
export const SnapshotSchema = z.object({ ...snapshotCore, totalIssues: z.number().int().min(0) }).strict();
export type Snapshot = z.infer<typeof SnapshotSchema>;
/** The same with the compact count key. */
export const CompactSnapshotSchema = z.object({ ...snapshotCore, total: z.number().int().min(0) }).strict();

/** What a comparison left out, and why: only what both checks checked is compared. */
export const NotComparedSchema = z
  .object({
    reason: z
      .enum(["engine_not_ok", "outside_baseline"])
      .describe("engine_not_ok: `engine` was not ok in both; outside_baseline: the baseline did not check `paths`"),
    engine: ProvenanceSchema.optional(),
    paths: z.array(z.string()).optional(),
    message: z.string(),
  })
  .strict();
export type NotCompared = z.infer<typeof NotComparedSchema>;

const deltaShape = {
  introduced: z.array(WorkflowIssueSchema).describe("In the current check, not matched in the baseline"),
  resolved: z.array(WorkflowIssueSchema).describe("In the baseline, not matched in the current check"),
  unchangedCount: z.number().int().min(0).describe("Matched one-to-one (same id, or same file/rule/message/severity at the nearest line)"),
  netErrorDelta: z.number().int().describe("Errors now minus errors then, over what was compared"),
  netWarningDelta: z.number().int(),
  notCompared: z.array(NotComparedSchema).optional().describe("What was left out of the comparison; absent when nothing was"),
};
/** The delta of after_edit_check and apply_diagnostic_fix: compare without the two ids. */
export const DeltaSchema = z.object(deltaShape).strict();
export type Delta = z.infer<typeof DeltaSchema>;
/** An after-edit delta when no earlier check covered the files: nothing was compared, and it says so. */
export const NoBaselineSchema = z
  .object({
    status: z.literal("no_baseline"),
    message: z.string(),
  })
  .strict();
export type NoBaseline = z.infer<typeof NoBaselineSchema>;
/** The delta of after_edit_check and apply_diagnostic_fix: a comparison, or no_baseline. */
export const AfterEditDeltaSchema = z.union([DeltaSchema, NoBaselineSchema]);
export type AfterEditDelta = z.infer<typeof AfterEditDeltaSchema>;
/** compare_diagnostics. */
export const CompareSchema = z.object({ baselineCheckId: z.string(), currentCheckId: z.string(), ...deltaShape }).strict();
export type Compare = z.infer<typeof CompareSchema>;

/** ingest_diagnostics. */
export const IngestResultSchema = z
  .object({
    checkId: z.string().describe("Snapshot id of this ingest (usable with get_diagnostic_snapshot and compare_diagnostics)"),
    ingested: z.number().int().min(0).describe("Diagnostics kept as issues"),
    rejected: z.array(z.object({ index: z.number().int().min(0), reason: z.string() }).strict()).describe("Refused items, by index in diagnostics"),
  })
  .strict();

/** get_live_diagnostics. */
export const LiveSchema = z
  .object({
    issues: z.array(
      WorkflowIssueSchema.extend({
        checkId: z.string().describe("The check or ingest that observed it"),
        observedAt: z.string().describe("ISO time of that observation"),
      }).strict(),
    ),
    files: z.array(
      z
        .object({
          file: z.string(),
          stale: z.boolean().describe("True when the file changed (or vanished) after its newest observation, or was never observed"),
        })
        .strict(),
    ),
  })
  .strict();
export type Live = z.infer<typeof LiveSchema>;

/** preview_diagnostic_fix. */
export const PreviewResultSchema = z
  .object({
    transactionId: z.string().describe("Pass to apply_diagnostic_fix (with confirm: true) or discard_diagnostic_fix"),
    expiresAt: z.string().describe("ISO time after which the transaction answers transaction_expired"),
    files: z.array(z.object({ file: z.string(), addedLines: z.number().int().min(0), removedLines: z.number().int().min(0) }).strict()),
  })
  .strict();
export type PreviewResult = z.infer<typeof PreviewResultSchema>;

/** apply_diagnostic_fix: why the check after a written fix did not run (the files stay written). */
export const PostCheckErrorSchema = z
  .object({ code: z.string(), message: z.string() })
  .strict()
  .describe("Present when the check after the write failed (check and delta are then null); the fix is applied");
export type PostCheckError = z.infer<typeof PostCheckErrorSchema>;

/** discard_diagnostic_fix. */
export const DiscardResultSchema = z.object({ discarded: z.literal(true) }).strict();
