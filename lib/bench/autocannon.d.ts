/** The part of autocannon's programmatic API the warming bench uses (the package ships no types). */
declare module "autocannon" {
  type Options = { url: string; connections?: number; duration?: number; headers?: Record<string, string> };
  type Result = { requests: { average: number; total: number }; errors: number; non2xx: number };
  export default function autocannon(options: Options): Promise<Result>;
}
