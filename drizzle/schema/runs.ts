import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { boosts, type RequestProfileValue, type VariationsValue } from "./boosts";
import { createdAt, id } from "./columns";
import type { BatchPurpose, PlannedCall, PopFigures } from "@/lib/core/calls";
import type { Egress } from "@/lib/core/regions";
import type { RunTrigger } from "@/lib/core/run-trigger";
import type { VisitShare } from "@/lib/core/traffic";
import { sites } from "./sites";
import type { FailureSample, PopBreakdown, RegionBreakdown, Slowdown, Summary, VariantBreakdown } from "@/lib/core/run-figures";

/** What GET /v1/runs/{id} shows of a run per region, per PoP and per variant (kept before variants were: none). */
export type RunBreakdown = { regions: RegionBreakdown[]; pops: PopBreakdown[]; variants?: VariantBreakdown[] };

/** Boost runs and on-demand warm runs share this table: a warm's run_id is a run id. */
export const runs = pgTable(
  "runs",
  {
    id: id(),
    kind: text("kind").$type<"boost" | "warm">().notNull(),
    siteId: integer("site_id")
      .notNull()
      .references(() => sites.id, { onDelete: "cascade" }),
    /**
     * The site's account, kept on the run: the API's busiest reads (an account's runs, newest first)
     * are then one index scan, however many sites the account has. A site never changes account.
     */
    accountId: integer("account_id").notNull(),
    boostId: integer("boost_id").references(() => boosts.id, { onDelete: "cascade" }),
    /**
     * The run's ordinal within its boost (1, 2, 3… in creation order), or within its site's runs without
     * a boost (warms, changes). Assigned by the trigger runs_number (migration 0049) from the boost's
     * (the site's) counter as the row is inserted, whichever statement inserts it: the counter's row
     * lock keeps two runs of one boost created at once from sharing one. The default is never kept.
     */
    number: integer("number").notNull().default(0),
    /** pending → running → done | failed | paused */
    status: text("status").notNull().default("pending"),
    statusMessage: text("status_message"),
    /** URLs submitted with a warm request; boost runs resolve theirs when planned. */
    sourceUrls: text("source_urls").array(),
    regions: text("regions").array().notNull(),
    variations: jsonb("variations").$type<VariationsValue>(),
    /** Calls this run is expected to make; counted against the monthly quota. */
    plannedCalls: integer("planned_calls").notNull().default(0),
    failureSamples: jsonb("failure_samples").$type<FailureSample[]>().notNull().default([]),
    /** Outcomes of the latest calls, oldest first (`1` failed, `0` succeeded): the auto-pause window. */
    recentOutcomes: text("recent_outcomes").notNull().default(""),
    /** When and why the run slowed down or sped up again (oldest first, bounded). */
    slowdowns: jsonb("slowdowns").$type<Slowdown[]>().notNull().default([]),
    /** Request every cacheable miss once more after the run's calls (verification batches, purpose `verify`). */
    verify: boolean("verify").notNull().default(false),
    /** After the run's calls, a sample of its URLs asked as real visitors' browsers would (summary.visitors). */
    verifyVisitors: boolean("verify_visitors").notNull().default(false),
    /** The boost's (or the warm's) request profile when the run was created: what every call sends beyond its variant. */
    requestProfile: jsonb("request_profile").$type<RequestProfileValue>(),
    /** Rows in run_results: they stop at PREHEAT_RUN_RESULTS_MAX, the calls that did not hit may go on. */
    resultsStored: integer("results_stored").notNull().default(0),
    /** The rows of run_results this run keeps: its organization's plan when it was created; null, PREHEAT_RUN_RESULTS_MAX. */
    resultsMax: integer("results_max"),
    /** What started the run (lib/core/run-trigger.ts) and who: a key's prefix, a member's address, the cron, a hook's name. Null before it was recorded. */
    trigger: text("trigger").$type<RunTrigger["kind"]>(),
    triggerLabel: text("trigger_label"),
    /**
     * The run's final figures, written when it ends (finishRun): a finished run's batches no longer
     * change, and listing runs would otherwise sum them again on every read. Null while it runs, and
     * for runs ended otherwise (planning failed, auto-paused): their figures are summed when read.
     */
    summary: jsonb("summary").$type<Summary>(),
    /**
     * A finished run's figures per region, per PoP and per variant, kept with `summary` when the run
     * ends (finishRun; for runs ended before it did, by their first full read, getRun): they no longer
     * change, and reading a run would otherwise aggregate its batches again each time.
     */
    breakdown: jsonb("breakdown").$type<RunBreakdown>(),
    /**
     * The share of the site's last 30 days of visits (lib/traffic/popularity.ts) whose pages the run
     * warms, set when it is planned; null when the site had no traffic data then.
     */
    visitShare: jsonb("visit_share").$type<VisitShare>(),
    /**
     * A keep-warm run gathers its boost's re-warms until then (ADR 0010); it ends once past it and its
     * batches are done. A changes run (trigger `changes`) gathers its site's changes until then, pending,
     * and is planned once past it.
     */
    openUntil: timestamp("open_until", { withTimezone: true }),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("runs_site_idx").on(t.siteId, t.kind, t.id),
    index("runs_account_idx").on(t.accountId, t.kind, t.id),
    index("runs_boost_idx").on(t.boostId, t.id),
    index("runs_status_idx").on(t.status),
    // The exclusion rules, enforced by the database so that two racing requests cannot both win.
    // A boost has at most one run warming and one waiting: a deploy hook's follow-up waits, pending,
    // while the run before it warms (lib/boosts/hooks.ts); any other trigger is refused while either exists.
    // Keep-warm runs go on beside them: one open per boost at a time (ADR 0010).
    uniqueIndex("runs_one_pending_per_boost").on(t.boostId).where(sql`${t.status} = 'pending' and ${t.kind} = 'boost' and ${t.trigger} is distinct from 'keep_warm'`),
    uniqueIndex("runs_one_running_per_boost").on(t.boostId).where(sql`${t.status} = 'running' and ${t.kind} = 'boost' and ${t.trigger} is distinct from 'keep_warm'`),
    uniqueIndex("runs_one_keep_warm_per_boost").on(t.boostId).where(sql`${t.status} in ('pending', 'running') and ${t.trigger} = 'keep_warm'`),
    uniqueIndex("runs_one_active_warm_per_site").on(t.siteId).where(sql`${t.status} in ('pending', 'running') and ${t.kind} = 'warm' and ${t.trigger} is distinct from 'changes'`),
    // A site's changes gather in one pending run until its open_until, then warm; later ones gather in the next.
    uniqueIndex("runs_one_gathering_changes_per_site").on(t.siteId).where(sql`${t.status} = 'pending' and ${t.trigger} = 'changes'`),
  ],
);

/**
 * How many runs each boost has: `total` of GET /v1/runs (an organization's boost runs, a boost's, a
 * site-limited key's) is a sum of a few of these rows instead of a count of every run the organization
 * ever had, which grew with its history (1.7 ms a page at 20,000 runs, docs/benchmarks.md). Kept by
 * the database's triggers on `runs` (migration 0030), for every way a run is added or deleted; a
 * boost's row goes with the boost. A boost never changes site, so its site and organization are kept here.
 */
export const boostRunCounts = pgTable(
  "boost_run_counts",
  {
    boostId: integer("boost_id")
      .primaryKey()
      .references(() => boosts.id, { onDelete: "cascade" }),
    accountId: integer("account_id").notNull(),
    siteId: integer("site_id").notNull(),
    runs: integer("runs").notNull().default(0),
  },
  (t) => [index("boost_run_counts_account_idx").on(t.accountId, t.siteId)],
);

/** Statistics live per batch (never per call) and are summed into a run's summary. */
export const runBatches = pgTable(
  "run_batches",
  {
    id: id(),
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    region: text("region").notNull(),
    calls: jsonb("calls").$type<PlannedCall[]>().notNull(),
    /**
     * `warm` (the run's own calls, its statistics), `verify` (cacheable misses asked again) or
     * `visitors` (a sample asked as standard visitors, one batch per visitor and region): both counted apart.
     */
    purpose: text("purpose").$type<BatchPurpose>().notNull().default("warm"),
    /** No call of this batch leaves before then (a verification waits for the cache to store what it fetched). */
    notBefore: timestamp("not_before", { withTimezone: true }),
    /** pending → done | failed; a batch's statistics are written once, with its status. */
    status: text("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /**
     * Calls handed to the network. Written before a wave of calls is sent, so that after a crash the
     * calls that were in flight are counted once (as interrupted) and never sent again.
     */
    dispatchedCalls: integer("dispatched_calls").notNull().default(0),
    /** Calls whose outcome is recorded below; the batch resumes from here. */
    totalCalls: integer("total_calls").notNull().default(0),
    successfulCalls: integer("successful_calls").notNull().default(0),
    failedCalls: integer("failed_calls").notNull().default(0),
    cacheHits: integer("cache_hits").notNull().default(0),
    /** Answers the CDN did not cache at all (BYPASS, DYNAMIC): kept apart from misses. */
    bypassedCalls: integer("bypassed_calls").notNull().default(0),
    responseTimeMsTotal: bigint("response_time_ms_total", { mode: "number" }).notNull().default(0),
    pops: jsonb("pops").$type<Record<string, number>>().notNull().default({}),
    /**
     * What the site's answers said of their cache key, for the run's advice: `answers` (answers
     * read), `vary:<header>` and `set-cookie:<name>` (answers that carried it). Written whole, like pops.
     */
    answerHeaders: jsonb("answer_headers").$type<Record<string, number>>().notNull().default({}),
    /** Calls that did not end as a cache hit, by reason (lib/warm/not-cached.ts). */
    notCached: jsonb("not_cached").$type<Record<string, number>>().notNull().default({}),
    /** Response times of hits, and of cacheable misses, summed: cold against warm. */
    hitMsTotal: bigint("hit_ms_total", { mode: "number" }).notNull().default(0),
    missMsTotal: bigint("miss_ms_total", { mode: "number" }).notNull().default(0),
    popFigures: jsonb("pop_figures").$type<Record<string, PopFigures>>().notNull().default({}),
    /** Per variant (`agent|language|cookie set|encoding`): calls and hits, for the per-variant figures and the advice. */
    variantFigures: jsonb("variant_figures").$type<Record<string, { calls: number; hits: number }>>().notNull().default({}),
    /** Calls answered by bot protection, by vendor (cloudflare, akamai, …): the `blocked` reason's detail. */
    blockedBy: jsonb("blocked_by").$type<Record<string, number>>().notNull().default({}),
    /** Calls recorded per egress (worker, proxy, local): how this batch's calls left. */
    egressCalls: jsonb("egress_calls").$type<Partial<Record<Egress, number>>>().notNull().default({}),
    lastError: text("last_error"),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("run_batches_run_seq_key").on(t.runId, t.seq)],
);

/**
 * The calls of a run, one row each, hits included (`reason` null), the first PREHEAT_RUN_RESULTS_MAX
 * of the run (or its plan's bound) as they are recorded. Call order is the batch's seq, then the
 * call's index in it.
 */
export const runResults = pgTable(
  "run_results",
  {
    /**
     * No foreign key: checked for each row, it was a third of the cost of recording a run's calls.
     * Rows are written only by the recording, for runs it holds locked, and a trigger deletes them
     * with their run (migration 0028).
     */
    runId: integer("run_id").notNull(),
    batchSeq: integer("batch_seq").notNull(),
    callIndex: integer("call_index").notNull(),
    region: text("region").notNull(),
    url: text("url").notNull(),
    userAgent: text("user_agent").notNull(),
    language: text("language"),
    /** The cookie set and the Accept-Encoding variant of the call; null when the run has none. */
    cookieSet: text("cookie_set"),
    encoding: text("encoding"),
    statusCode: integer("status_code"),
    cacheStatus: text("cache_status"),
    pop: text("pop"),
    responseTimeMs: integer("response_time_ms").notNull(),
    /** Why the call did not end as a cache hit (lib/core/not-cached.ts); null for a hit. */
    reason: text("reason"),
    /** What a second request said, with `verify`; null when the call was not re-requested. */
    verifiedCacheStatus: text("verified_cache_status"),
    /** The bot protection that answered instead of the site (lib/core/block-vendors.ts); null when the call was not blocked. */
    blockedBy: text("blocked_by"),
    /** The answer as a shared cache reads it (lib/warm/freshness.ts): its lifetime, null when not storable or when it gives none. */
    sharedLifetimeSeconds: integer("shared_lifetime_seconds"),
    /** Its age on arrival; null without an answer. */
    ageSeconds: integer("age_seconds"),
    /** When it stops being fresh in a shared cache; null without a lifetime. */
    freshUntil: timestamp("fresh_until", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.runId, t.batchSeq, t.callIndex] }), index("run_results_run_reason_idx").on(t.runId, t.reason)],
);

/**
 * The URLs a boost run found in its sitemaps when it was planned, with their lastmod: once the run
 * is done, the next run with `only_changed` warms only what is new or changed since. A boost keeps
 * the snapshots of its last done run and of the run being planned; older ones are deleted.
 */
export const runUrlStates = pgTable(
  "run_url_states",
  {
    runId: integer("run_id")
      .notNull()
      .references(() => runs.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    lastmod: timestamp("lastmod", { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.runId, t.url] })],
);
