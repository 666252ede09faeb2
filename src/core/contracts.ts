import { z } from "zod";

/** Engines Signalint runs itself. */
export const ENGINE_NAMES = ["oxlint", "tsc", "biome", "eslint", "deno"] as const;
export const EngineNameSchema = z.enum(ENGINE_NAMES);
export type EngineName = z.infer<typeof EngineNameSchema>;

/** Issue provenance: a real engine, or "lsp" for diagnostics ingested from an editor or language server. */
export const ProvenanceSchema = z.enum([...ENGINE_NAMES, "lsp"]);
export type Provenance = z.infer<typeof ProvenanceSchema>;

export const SeveritySchema = z.enum(["error", "warning"]);
export type Severity = z.infer<typeof SeveritySchema>;
/** What an engine's edit is: "safe" its own `--fix` applies; "suggestion" it offers but `--fix` leaves (ESLint suggestions, Biome unsafe fixes). */
export const FixKindSchema = z.enum(["safe", "suggestion"]);
export type FixKind = z.infer<typeof FixKindSchema>;

/** One diagnostic after normalization. */
export const NormalizedIssueSchema = z
  .object({
    issueId: z.string(),
    file: z.string(),
    line: z.number().int().min(1),
    col: z.number().int().min(1),
    engine: EngineNameSchema,
    rule: z.string(),
    severity: SeveritySchema,
    message: z.string().max(120),
    fixable: z.boolean().describe("The engine offers an edit"),
    fixKind: FixKindSchema.optional().describe("suggestion: not applied by --fix"),
    clusterId: z.string().nullable(),
    alsoReportedBy: z.array(z.object({ engine: EngineNameSchema, rule: z.string() }).strict()).optional(),
  })
  .strict();
export type NormalizedIssue = z.infer<typeof NormalizedIssueSchema>;

/**
 * An issue as every tool lists it (check responses, detail, deltas, snapshots, the live view): one shape, defined
 * once in each output schema; default-valued fields are left out (fixable false, clusterId null or implied).
 */
export const IssueSchema = NormalizedIssueSchema.extend({
  engine: ProvenanceSchema,
  source: z.string().optional(),
  fixable: z.literal(true).optional(),
  clusterId: z.string().optional(),
  fullMessage: z.string().optional(),
})
  .strict()
  .meta({ id: "Issue" });
export type PublicIssue = z.infer<typeof IssueSchema>;

/** An issue of a check response (from a real engine). */
export type CheckIssue = PublicIssue & { engine: EngineName };

export const EngineStatusSchema = z
  .object({
    status: z.enum(["ok", "error", "disabled"]),
    code: z.enum(["timeout", "engine_output_exceeded", "engine_failed", "engine_output_invalid", "engine_partial", "engine_not_found"]).optional(),
    message: z.string().optional(),
    version: z.string().optional(),
  })
  .strict()
  .meta({ id: "EngineStatus" });
export type EngineStatus = z.infer<typeof EngineStatusSchema>;

export const EnginesSchema = z
  .object({
    oxlint: EngineStatusSchema,
    tsc: EngineStatusSchema,
    biome: EngineStatusSchema,
    eslint: EngineStatusSchema,
    deno: EngineStatusSchema,
  })
  .strict()
  .meta({ id: "Engines" });
export type Engines = z.infer<typeof EnginesSchema>;

export const ClusterSchema = z
  .object({
    clusterId: z.string(),
    rootCauseSummary: z.string(),
    ruleIds: z.array(z.string()),
    issueCount: z.number().int().min(2),
    fileCount: z.number().int().min(1),
    priority: z.number().int().min(1).max(5).describe("1 = fix first"),
    suggestedAction: z.string(),
    sampleIssueIds: z.array(z.string()),
  })
  .strict()
  .meta({ id: "Cluster" });
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
  .strict()
  .meta({ id: "LoopWarning" });
export type LoopWarning = z.infer<typeof LoopWarningSchema>;

export const EngineCacheSchema = z
  .object({
    hits: z.number().int().min(0),
    misses: z.number().int().min(0),
    mode: z.string().optional(),
  })
  .strict()
  .meta({ id: "EngineCache" });

/** Files under the checked paths that a check did not fully check, counted by reason. */
export const NotCheckedSchema = z
  .object({
    reason: z.string(),
    count: z.number().int().min(1),
    sample: z.array(z.string()),
  })
  .strict();
export type NotChecked = z.infer<typeof NotCheckedSchema>;

/**
 * check_files' errors outside the checked files (tsc's in their programs, ESLint's typed rules' in the files importing
 * them): the ones this edit introduced (or, nothing known before, all).
 */
export const ElsewhereSchema = z
  .object({
    introduced: z.number().int().min(0),
    unattributed: z.number().int().min(0).optional().describe("No earlier check to tell whether this change caused them"),
    engines: z.array(EngineNameSchema).min(1).describe("The engines of every error counted (issues lists only the first)"),
    issues: z.array(IssueSchema),
    nextStep: z.string(),
  })
  .strict()
  .meta({ id: "Elsewhere" });
export type Elsewhere = Omit<z.infer<typeof ElsewhereSchema>, "issues"> & { issues: CheckIssue[] };

/**
 * Past pendingAfterMs: the named files' answer is complete (every engine, every program holding them) and `programs`
 * tsc programs still re-check the rest, `files` other files (at most that many may change; nextStep says what to do).
 */
export const PendingSchema = z.object({ programs: z.number().int().min(1), files: z.number().int().min(0) }).strict();
export type Pending = z.infer<typeof PendingSchema>;

const checkCore = {
  status: z.enum(["clean", "issues_found", "error", "pending"]).describe("error: an engine failed or files went unchecked (engines, notChecked)"),
  checkId: z.string(),
  engines: EnginesSchema,
  clusters: z.array(ClusterSchema),
  truncated: z.boolean().describe("More clusters than returned"),
  loopWarning: LoopWarningSchema.nullable(),
  nextStep: z.string().optional(),
  cache: z
    .object({
      oxlint: EngineCacheSchema.optional(),
      tsc: EngineCacheSchema.optional(),
      biome: EngineCacheSchema.optional(),
      eslint: EngineCacheSchema.optional(),
      deno: EngineCacheSchema.optional(),
    })
    .strict()
    .meta({ id: "Cache" })
    .optional(),
  notChecked: z.array(NotCheckedSchema).optional(),
  elsewhere: ElsewhereSchema.optional(),
  pending: PendingSchema.optional(),
};

/** CheckResponse, schema 1.3 (a superset of the original 1.1; 1.3 added `engines.deno`, status "pending" and `pending`). */
export const CheckResponseSchema = z
  .object({
    schemaVersion: z.literal("1.3"),
    ...checkCore,
    projectRoot: z.string(),
    totalIssues: z.number().int().min(0),
    remainingIssues: z.array(IssueSchema).optional().describe("Issues in no returned cluster (capped)"),
    omittedIssueCount: z.number().int().min(0).optional().describe("Issues listed nowhere"),
    filteredOutIssueCount: z.number().int().min(0).optional().describe("Issues outside the paths or ignored"),
  })
  .strict()
  .meta({ id: "CheckResponse" });
/** The schema admits every issue provenance; a check response only ever lists real engines' issues. */
export type CheckResponse = Omit<z.infer<typeof CheckResponseSchema>, "remainingIssues" | "elsewhere"> & {
  remainingIssues?: CheckIssue[];
  elsewhere?: Elsewhere;
};

/** The same response with compact keys and no projectRoot. */
export const CompactCheckResponseSchema = z
  .object({
    v: z.literal("1.3"),
    ...checkCore,
    total: z.number().int().min(0),
    remaining: z.array(IssueSchema).optional(),
    omitted: z.number().int().min(0).optional(),
    filteredOut: z.number().int().min(0).optional(),
  })
  .strict()
  .meta({ id: "CompactCheckResponse" });
export type CompactCheckResponse = Omit<z.infer<typeof CompactCheckResponseSchema>, "remaining" | "elsewhere"> & {
  remaining?: CheckIssue[];
  elsewhere?: Elsewhere;
};

export const PingResultSchema = z.object({ pong: z.literal(true), projectRoot: z.string() }).strict();

export const StaleSchema = z
  .object({
    status: z.literal("stale"),
    code: z.enum(["no_check", "check_unknown", "check_expired", "cluster_not_found", "issue_not_found"]),
    message: z.string(),
  })
  .strict()
  .meta({ id: "Stale" });
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
    bytes: z.number().int().min(0),
    limitBytes: z.number().int().min(0),
    artifactId: z.string(),
  })
  .strict()
  .meta({ id: "Incomplete" });
export type Incomplete = z.infer<typeof IncompleteSchema>;

/**
 * The advertised form of an output schema: the listed data-bearing fields may be null, and an `incomplete` marker
 * may be present (see the size bound in the payload layer).
 */
export function withSizeBound<T extends z.ZodRawShape>(schema: z.ZodObject<T>, dataFields: readonly (keyof T & string)[]): z.ZodObject {
  const nullable: Record<string, z.ZodType> = {};
  for (const field of dataFields) {
    const value = schema.shape[field] as z.ZodType;
    // A field that may already be null (after_edit_check's delta) keeps its one null branch.
    nullable[field] = value.safeParse(null).success ? value : value.nullable();
  }
  return schema.extend({ ...nullable, incomplete: IncompleteSchema.optional() }).strict();
}

/** An issue in get_issue_detail: the lean issue plus the whole text when the 120-character message had to cut it. */
export type DetailIssue = CheckIssue;

export const IssueDetailSchema = z.object({ issues: z.array(IssueSchema) }).strict();

export const ArtifactChunkSchema = z
  .object({
    artifactId: z.string(),
    mimeType: z.literal("application/json"),
    offset: z.number().int().min(0),
    totalBytes: z.number().int().min(0),
    nextOffset: z.number().int().min(0).nullable(),
    eof: z.boolean(),
    data: z.string().describe("Base64"),
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
  .strict()
  .meta({ id: "WorkflowStale" });
export type WorkflowStale = z.infer<typeof WorkflowStaleSchema>;

/** A NormalizedIssue that may come from ingest (engine "lsp" plus the diagnostic's source), as snapshots store it. */
export const StoredIssueSchema = NormalizedIssueSchema.extend({ engine: ProvenanceSchema, source: z.string().optional() }).strict();
export type StoredIssue = z.infer<typeof StoredIssueSchema>;
/** An issue of the workflow tools' answers (deltas, snapshots, the live view): the public lean form. */
export type WorkflowIssue = PublicIssue;

const snapshotCore = {
  checkId: z.string(),
  createdAt: z.string(),
  tool: z.string(),
  scope: z.array(z.string()),
  engines: EnginesSchema,
  clusters: z.array(ClusterSchema),
  issues: z.array(IssueSchema),
  cache: CheckResponseSchema.shape.cache,
  durationMs: z.number().int().min(0),
};

/** get_diagnostic_snapshot: the immutable record of one check. */
export const SnapshotSchema = z.object({ ...snapshotCore, totalIssues: z.number().int().min(0) }).strict();
export type Snapshot = z.infer<typeof SnapshotSchema>;
/** The same with the compact count key. */
export const CompactSnapshotSchema = z.object({ ...snapshotCore, total: z.number().int().min(0) }).strict();
export type CompactSnapshot = z.infer<typeof CompactSnapshotSchema>;

/** What a comparison left out, and why: only what both checks checked is compared. */
export const NotComparedSchema = z
  .object({
    reason: z.enum(["engine_not_ok", "outside_baseline", "not_checked"]),
    engine: z.string().optional(),
    paths: z.array(z.string()).optional(),
    message: z.string(),
  })
  .strict();
export type NotCompared = z.infer<typeof NotComparedSchema>;

const deltaShape = {
  introduced: z.array(IssueSchema),
  resolved: z.array(IssueSchema),
  unchangedCount: z.number().int().min(0),
  netErrorDelta: z.number().int(),
  netWarningDelta: z.number().int(),
  notCompared: z.array(NotComparedSchema).optional(),
};
/** The delta of after_edit_check and apply_diagnostic_fix: compare without the two ids. */
export const DeltaSchema = z.object(deltaShape).strict().meta({ id: "Delta" });
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
    checkId: z.string(),
    ingested: z.number().int().min(0),
    rejected: z.array(z.object({ index: z.number().int().min(0), reason: z.string() }).strict()),
  })
  .strict();

/** get_live_diagnostics. */
export const LiveSchema = z
  .object({
    issues: z.array(
      IssueSchema.extend({
        checkId: z.string(),
        observedAt: z.string(),
      })
        .strict()
        .meta({ id: "LiveIssue" }),
    ),
    files: z.array(
      z
        .object({
          file: z.string(),
          stale: z.boolean().describe("Changed since observed"),
        })
        .strict(),
    ),
  })
  .strict();
export type Live = z.infer<typeof LiveSchema>;
