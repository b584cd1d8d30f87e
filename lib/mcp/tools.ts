import type { z } from "zod";
import type { Input } from "@/lib/api/handler";
import type { OperationSpec } from "@/lib/api/operation";
import * as boostOperations from "@/lib/api/operations/boosts";
import * as runOperations from "@/lib/api/operations/runs";
import * as siteOperations from "@/lib/api/operations/sites";
import { toRunQueued, triggerBoostRun } from "@/lib/boosts/trigger";
import type { AccountContext } from "@/lib/context";
import { listRunResults } from "@/lib/runs/results";
import { getRun, listRuns } from "@/lib/runs/service";
import { queueWarm, toWarmQueued } from "@/lib/runs/warm-runs";
import { getSite, listSites, toSite } from "@/lib/sites/service";

type Inputs = z.ZodObject | undefined;

/**
 * One MCP tool: the `/v1` operation it stands for, whose scope bounds it and whose schemas read its
 * arguments, and the same domain call and answer as that operation's route.
 */
export type McpTool = {
  name: string;
  /** What the tool does, for the model choosing one; the server adds the scope it needs. */
  description: string;
  operation: OperationSpec<Inputs, Inputs, Inputs>;
  answer: (ctx: AccountContext, input: { params: unknown; query: unknown; body: unknown }) => Promise<object>;
};

/** Keeps the operation's schema types for `answer`, as defineOperation does for route handlers. */
function defineTool<P extends Inputs, Q extends Inputs, B extends Inputs>(tool: {
  name: string;
  description: string;
  operation: OperationSpec<P, Q, B>;
  answer: (ctx: AccountContext, input: { params: Input<P>; query: Input<Q>; body: Input<B> }) => Promise<object>;
}): McpTool {
  return tool as McpTool;
}

export const tools: McpTool[] = [
  defineTool({
    name: "list_sites",
    description: "List the account's sites (pages of `limit`, from `offset`), with whether each is validated.",
    operation: siteOperations.listSites,
    answer: async (ctx, { query }) => {
      const { rows, total } = await listSites(ctx, query);
      return { data: rows.map(toSite), total, ...query };
    },
  }),
  defineTool({
    name: "get_site",
    description: "Get one site: its domain, whether it is validated, its validation token and its pace.",
    operation: siteOperations.getSite,
    answer: async (ctx, { params }) => toSite(await getSite(ctx, params.siteId)),
  }),
  defineTool({
    name: "warm_urls",
    description:
      "Queue an on-demand warm of up to 5,000 URLs of a validated site, from the given regions and with the given user agents and languages. Answers the run's id: read the run with get_run.",
    operation: runOperations.warmSite,
    answer: async (ctx, { params, body }) => toWarmQueued(await queueWarm(ctx, params.siteId, body)),
  }),
  defineTool({
    name: "trigger_boost",
    description: "Start a run of a boost now (refused while one is pending or running). Answers the run's id: read the run with get_run.",
    operation: boostOperations.runBoost,
    answer: async (ctx, { params }) => toRunQueued(await triggerBoostRun(ctx, params.boostId)),
  }),
  defineTool({
    name: "get_run",
    description: "Get a run (a boost run or an on-demand warm): its status, progress and summary (calls, cache hits, why calls missed, per region and per PoP).",
    operation: runOperations.getRun,
    answer: (ctx, { params }) => getRun(ctx, params.runId),
  }),
  defineTool({
    name: "list_runs",
    description: "List boost runs, newest first, optionally those of one boost (`boost_id`), in pages of `limit` from `offset`.",
    operation: runOperations.listRuns,
    answer: async (ctx, { query: { boost_id, ...page } }) => {
      const { data, total } = await listRuns(ctx, { boostId: boost_id }, page);
      return { data, total, ...page };
    },
  }),
  defineTool({
    name: "run_results",
    description:
      "List a run's calls in call order, each with why it did not end as a cache hit: by default those that did not (`calls`: `hit` or `all` for the others), optionally only one `reason`, `region` or URL text (`url`), in pages of `limit` from `offset`.",
    // The route's `format=csv` is a download for a browser; a tool answers JSON pages.
    operation: { ...runOperations.listRunResults, query: runOperations.listRunResults.query!.omit({ format: true }) },
    answer: (ctx, { params, query: { calls, reason, region, url, ...page } }) => listRunResults(ctx, params.runId, { calls, reason, region, url }, page),
  }),
];
