import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native/wasm database drivers must be loaded by Node, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "pg-boss", "pg", "rate-limiter-flexible", "pino", "prom-client"],
  poweredByHeader: false,
  // The public API lives at {base_url}/v1/...; the handlers live under app/api/v1.
  async rewrites() {
    return [{ source: "/v1/:path*", destination: "/api/v1/:path*" }];
  },
};

export default nextConfig;
