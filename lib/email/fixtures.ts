import type { TemplateName, TemplateProps } from "./render";
import type { RunReportProps } from "./templates/run-report";

/** Test data shared by the e-mail tests. */
const sample = (i: number) => ({
  url: `https://shop.test/broken-${i}`,
  region: "fr",
  user_agent: "mobile",
  language: i % 2 ? null : "fr-FR",
  status: i === 1 ? null : 500,
  error: i === 1 ? "timeout" : "HTTP 500",
});

/** A run report with more PoPs and failure samples than the e-mail shows (5 of each). */
export const reportProps: RunReportProps = {
  boostName: "Nightly",
  siteDomain: "shop.test",
  runId: 7,
  runNumber: 2,
  status: "done",
  statusMessage: null,
  startedAt: "2026-11-22T03:00:00.000Z",
  finishedAt: "2026-11-22T03:02:05.000Z",
  summary: {
    total_calls: 2000,
    successful_calls: 1960,
    failed_calls: 40,
    cache_hits: 800,
    average_response_time_ms: 123.4,
    pops: { AMS: 10, CDG: 1200, FRA: 700, LHR: 40, MAD: 30, WAW: 20 },
    not_cached: { miss: 700, set_cookie: 300, http_error: 40, vary: 160 },
    cache_misses: 700,
    average_hit_response_time_ms: 41.2,
    average_miss_response_time_ms: 312.5,
    verified: { calls: 700, hits: 690 },
  },
  popsBreakdown: [
    { pop: "CDG", calls: 1200, hits: 500, average_hit_response_time_ms: 38.1, average_miss_response_time_ms: 290.4 },
    { pop: "FRA", calls: 700, hits: 290, average_hit_response_time_ms: 45, average_miss_response_time_ms: 350 },
    { pop: "LHR", calls: 40, hits: 5, average_hit_response_time_ms: 50, average_miss_response_time_ms: 400 },
    { pop: "MAD", calls: 30, hits: 3, average_hit_response_time_ms: 52, average_miss_response_time_ms: 410 },
    { pop: "WAW", calls: 20, hits: 2, average_hit_response_time_ms: 60, average_miss_response_time_ms: null },
    { pop: "AMS", calls: 10, hits: 0, average_hit_response_time_ms: null, average_miss_response_time_ms: 380 },
  ],
  regions: ["fr", "de"],
  failureSamples: [1, 2, 3, 4, 5, 6].map(sample),
  runUrl: "https://preheat.test/runs/7",
};

/**
 * Props for every template, each link carrying `token` as its real link would (in the query, or as
 * the path's last segment): the record type makes a new template add its own here.
 */
export function everyTemplate(token: string): { [T in TemplateName]: TemplateProps<T> } {
  const base = "https://preheat.test";
  return {
    "email-change-confirmation": { url: `${base}/email-change/${token}`, host: "preheat.test", oldEmail: "old@example.com", expiresInHours: 24 },
    "email-change-notice": { host: "preheat.test", newEmail: "new@example.com", stage: "requested" },
    invitation: { url: `${base}/invitations/${token}`, organization: "Shop", role: "admin", invitedBy: "owner@example.com", grants: "An admin reads everything.", expiresInDays: 7 },
    "ownership-lost": { domain: "shop.test", problem: "no proof", unvalidatesAt: "2026-12-01T00:00:00.000Z", siteUrl: `${base}/sites/1` },
    "ownership-revoked": { domain: "shop.test", problem: "no proof", maxUrlsPerRun: 10, siteUrl: `${base}/sites/1` },
    "quota-notice": { organization: "Shop", percent: 80, used: 80, limit: 100, plan: "free", periodEnd: "2026-12-01", usageUrl: `${base}/usage` },
    "run-report": reportProps,
    "sign-in-link": { url: `${base}/api/auth/callback/email?${new URLSearchParams({ callbackUrl: `${base}/sites`, token, email: "a@example.com" })}`, host: "preheat.test", expiresInHours: 24 },
    "sign-up-confirmation": { url: `${base}/signup/confirm?${new URLSearchParams({ token })}`, host: "preheat.test", expiresInHours: 24 },
    "sign-up-existing": { url: `${base}/api/auth/callback/email?${new URLSearchParams({ token })}`, host: "preheat.test", expiresInHours: 24 },
    "two-factor-locked": { host: "preheat.test", action: "signing in", failures: 10, minutes: 15, accountUrl: `${base}/account` },
    "webhook-disabled": { webhookUrl: "https://hooks.test/preheat", failures: 20, lastError: "HTTP 500", dashboardUrl: `${base}/webhooks/1` },
  };
}
