import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

type Metrics = {
  registry: Registry;
  httpRequests: Counter<"operation" | "method" | "status">;
  httpDuration: Histogram<"operation">;
  warmingCalls: Counter<"outcome" | "region">;
  callsInFlight: Gauge<"region">;
  jobs: Counter<"job" | "outcome">;
  queueDepth: Gauge<"job">;
  activeRuns: Gauge<"type">;
};

type Global = typeof globalThis & { __preheatMetrics?: Metrics };

/**
 * This process's Prometheus metrics (prom-client), one registry per process however many bundles
 * load this module. Counters count what this process did; the queue and run gauges are read from
 * the database when scraped (lib/observability/scrape.ts), so any process reports the whole service.
 */
export function metrics(): Metrics {
  const g = globalThis as Global;
  if (g.__preheatMetrics) return g.__preheatMetrics;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "preheat_process_" });
  const registers = [registry];
  g.__preheatMetrics = {
    registry,
    httpRequests: new Counter({ name: "preheat_http_requests_total", help: "API requests answered, by operation and status.", labelNames: ["operation", "method", "status"], registers }),
    httpDuration: new Histogram({
      name: "preheat_http_request_duration_seconds",
      help: "Time to answer an API request, by operation.",
      labelNames: ["operation"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    warmingCalls: new Counter({
      name: "preheat_warming_calls_total",
      help: "Warming calls made by this process, by outcome (hit, miss: answered but not from the cache, error: HTTP error or no answer) and region.",
      labelNames: ["outcome", "region"],
      registers,
    }),
    callsInFlight: new Gauge({ name: "preheat_warming_calls_in_flight", help: "Warming calls this process is making now, by region.", labelNames: ["region"], registers }),
    jobs: new Counter({ name: "preheat_jobs_total", help: "Background jobs this process ran, by kind and outcome (done, retry, failed).", labelNames: ["job", "outcome"], registers }),
    queueDepth: new Gauge({
      name: "preheat_queue_depth",
      help: "Background jobs waiting or running, by kind (the whole service, read from the database, plus the run jobs the embedded worker took in-process).",
      labelNames: ["job"],
      registers,
    }),
    activeRuns: new Gauge({ name: "preheat_active_runs", help: "Runs pending or running, by type (the whole service, read from the database).", labelNames: ["type"], registers }),
  };
  return g.__preheatMetrics;
}

/** A warming call's outcome label: its reason is null exactly when it ended as a cache hit. */
export function callOutcome(outcome: { ok: boolean; reason: string | null }): "hit" | "miss" | "error" {
  if (!outcome.ok) return "error";
  return outcome.reason === null ? "hit" : "miss";
}
