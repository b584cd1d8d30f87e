import { createHash } from "node:crypto";

/** What one round does: the kinds of work the server does most (objects built, JSON both ways, strings, a hash), on a few megabytes, beyond the cores' own caches. */
function round(): number {
  const rows = Array.from({ length: 20_000 }, (_, i) => ({ url: `https://site-${i % 97}.bench.test/p/${i}`, status: 200 + (i % 3), ms: i * 0.37, cache: i % 2 ? "HIT" : "MISS" }));
  const parsed = JSON.parse(JSON.stringify(rows)) as typeof rows;
  let total = 0;
  for (const row of parsed) total += row.url.length + row.status + (row.cache === "HIT" ? 1 : 0);
  return (
    total +
    createHash("sha256")
      .update(JSON.stringify(parsed.slice(0, 2_000)))
      .digest()[0]!
  );
}

/**
 * A fixed piece of work on one thread, timed: the milliseconds of the fastest of `rounds` rounds.
 * These machines change speed within an hour with no steal time shown (the same code took 310, then
 * 480 to 620 µs of server CPU a call in the 1,000-site case, docs/benchmarks.md): a case's figures
 * compare with another run's only at a similar speed, so the tenants bench prints it before each case.
 */
export function machineSpeedMs(rounds = 9): number {
  let best = Infinity;
  let sink = 0;
  const collect = (globalThis as { gc?: () => void }).gc;
  for (let i = 0; i < rounds; i++) {
    collect?.(); // each round starts from a clean heap (the benches run with --expose-gc)
    const started = performance.now();
    sink += round();
    best = Math.min(best, performance.now() - started);
  }
  if (sink < 0) throw new Error("unreachable: keeps the work from being optimised away");
  return best;
}
