/** The part of autocannon's programmatic API the benches use (the package ships no types). */
declare module "autocannon" {
  export type Request = { method?: string; path?: string; headers?: Record<string, string>; body?: string };
  type Options = {
    url: string;
    connections?: number;
    duration?: number;
    /** Requests per second across all connections. */
    overallRate?: number;
    /** Seconds before a request counts as timed out. */
    timeout?: number;
    headers?: Record<string, string>;
    requests?: (Request & { setupRequest?: (request: Request) => Request })[];
  };
  type Latency = { p50: number; p90: number; p99: number; average: number; max: number };
  export type Result = { requests: { average: number; total: number }; latency: Latency; errors: number; timeouts: number; non2xx: number };
  /** A run in progress: `response` is emitted once per answer, with its latency in ms. */
  type Instance = { on(event: "response", listener: (client: unknown, statusCode: number, bytes: number, responseTime: number) => void): Instance };
  export default function autocannon(options: Options): Promise<Result>;
  export default function autocannon(options: Options, done: (error: Error | null, result: Result) => void): Instance;
}
