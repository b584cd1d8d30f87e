import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native/wasm database drivers must be loaded by Node, not bundled. drizzle-orm too: bundled, each
  // layer (routes, instrumentation) had a copy of its own, and every check of a statement's parts
  // against the other copy's classes took drizzle's slow path (docs/benchmarks.md).
  serverExternalPackages: ["@electric-sql/pglite", "drizzle-orm", "postgres", "pg-boss", "pg", "rate-limiter-flexible", "pino", "prom-client"],
  poweredByHeader: false,
  // The public API lives at {base_url}/v1/...; the handlers live under app/api/v1, and app/v1 holds
  // their one-line twins (lib/api/public-routes.ts): a rewrite cost every API request a sixth of its time.
  // The guide's pages before it was organised by reader (issue 61): old links and bookmarks still arrive.
  async redirects() {
    return [
      { source: "/docs/allow-listing", destination: "/docs/site-owners/bot-protection", permanent: true },
      { source: "/docs/beacon", destination: "/docs/site-owners/beacon", permanent: true },
      { source: "/docs/traffic/logs", destination: "/docs/site-owners/traffic-logs", permanent: true },
      { source: "/docs/traffic/analytics", destination: "/docs/site-owners/traffic-analytics", permanent: true },
      { source: "/docs/change-receivers", destination: "/docs/site-owners/change-receivers", permanent: true },
      { source: "/docs/change-receivers/:system", destination: "/docs/site-owners/change-receivers/:system", permanent: true },
    ];
  },
};

export default nextConfig;
