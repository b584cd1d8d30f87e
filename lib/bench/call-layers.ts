import { guardedCount } from "@/lib/fetch";
import { CALL_TIMEOUT_MS, warmCall } from "@/lib/warm/call";
import { bareDispatchRate, callLoopRate, type LoopRate } from "./bare-dispatch";
import { percentile } from "./percentile";

export type CallLayers = { bare: LoopRate; fetch: LoopRate; call: LoopRate };

const ROUNDS = 3;

function median(rates: LoopRate[]): LoopRate {
  const p50 = (values: number[]) => percentile(values, 50);
  return { rate: p50(rates.map((r) => r.rate)), cpuMicrosPerRequest: p50(rates.map((r) => r.cpuMicrosPerRequest)) };
}

/**
 * A warming call's layers, each alone on the bench's origin in the same loop (issue 28's per-call
 * breakdown): bare undici `dispatch` (the reference), the guarded fetch layer (lib/fetch: the
 * address guard on each hop, timeouts, the size cap, the redirect rules) with the same headers, then
 * a whole warming call (lib/warm/call.ts: its headers put together, the answer's cache status,
 * challenge check and cache key read). What the engine adds (reservations, recording, the database)
 * is the full run's figure beyond the last. The three alternate over ROUNDS rounds and each figure is
 * its median: this machine's speed drifts within seconds. `url` must reach the origin
 * (PREHEAT_CONNECT_TO) and the guard must let it (PREHEAT_ALLOW_PRIVATE_NETWORK).
 */
export async function measureCallLayers(origin: string, url: string, headers: Record<string, string>, concurrency: number, seconds: number): Promise<CallLayers> {
  const { pathname, search } = new URL(url);
  const path = pathname + search;
  const slice = seconds / ROUNDS;
  const rounds: CallLayers[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    rounds.push({
      bare: await bareDispatchRate(origin, path, headers, concurrency, slice),
      fetch: await callLoopRate((done) => void guardedCount(url, { headers, timeoutMs: CALL_TIMEOUT_MS }).then(() => done(), done), concurrency, slice),
      call: await callLoopRate(
        (done) => void warmCall({ url, user_agent: "desktop", language: "fr-FR" }, "fr").then((outcome) => done(outcome.ok ? undefined : new Error(outcome.error ?? "not ok")), done),
        concurrency,
        slice,
      ),
    });
  }
  return { bare: median(rounds.map((r) => r.bare)), fetch: median(rounds.map((r) => r.fetch)), call: median(rounds.map((r) => r.call)) };
}
