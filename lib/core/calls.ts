/**
 * `user_agent`: a class, or one of the request profile's custom User-Agent strings. `cookie_set`
 * (its name in the run's variations) and `encoding` (sent as Accept-Encoding) only when the run has
 * them. `of`: for a verification call, the call it asks again (its batch's seq and its index there).
 * `visitor`: for a visitor check's call, the standard visitor it asks as (lib/warm/visitors.ts).
 */
export type PlannedCall = { url: string; user_agent: string; language: string | null; cookie_set?: string; encoding?: string; of?: { seq: number; index: number }; visitor?: string };
/** One PoP's calls in a batch: hits and cacheable misses (the calls whose reason is `miss`) with their response times summed. */
export type PopFigures = { calls: number; hits: number; hit_ms: number; misses: number; miss_ms: number };

export type BatchPurpose = "warm" | "verify" | "visitors";
