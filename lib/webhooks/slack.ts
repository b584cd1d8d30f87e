import { plural } from "@/lib/core/format";
import type { RunDetail } from "@/lib/runs/schemas";
import type { SitemapPayload } from "@/lib/sitemaps/schemas";
import { publicBaseUrl } from "@/lib/config/base-url";
import type { Envelope } from "@/lib/webhooks/types";

const RUN_OUTCOME: Record<string, string> = { "run.completed": "completed", "run.failed": "failed", "run.paused": "was paused" };

function runText(run: RunDetail, event: string): string {
  const { total_calls, failed_calls, cache_hits } = run.summary;
  // By its ordinal within its boost (or its site's warms), as the dashboard names it; a message queued before runs were numbered, by its id.
  const which = run.number === undefined ? `run ${run.id}` : `${run.boost_name ? "run" : "warm run"} ${run.number}`;
  const name = run.boost_name ? `of “${run.boost_name}”` : "(on-demand warm)";
  const figures = `${plural(total_calls, "call")}, ${plural(cache_hits, "cache hit")}, ${failed_calls} failed`;
  const why = event === "run.completed" ? "" : ` ${run.status_message ?? ""}`.trimEnd();
  return `Preheat: ${which} ${name} ${RUN_OUTCOME[event] ?? event}: ${figures}.${why} <${publicBaseUrl()}/runs/${run.id}|Open the run>`;
}

function sitemapText(sitemap: SitemapPayload, event: string): string {
  const what = event === "sitemap.processed" ? `processed: ${plural(sitemap.url_count, "URL")}` : `failed: ${sitemap.status_message ?? "unknown error"}`;
  return `Preheat: sitemap ${sitemap.url} ${what}. <${publicBaseUrl()}/sites/${sitemap.site_id}|Open the site>`;
}

/** A Slack incoming-webhook body: one short line with a link, instead of the signed envelope. */
export function slackMessage(envelope: Envelope): { text: string } {
  if (envelope.type.startsWith("run.")) return { text: runText(envelope.data as RunDetail, envelope.type) };
  if (envelope.type.startsWith("sitemap.")) return { text: sitemapText(envelope.data as SitemapPayload, envelope.type) };
  return { text: "Preheat: a test message. This Slack webhook receives Preheat's events." };
}
