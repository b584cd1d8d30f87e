import type { PlannedCall } from "@/drizzle/schema";
import { envInteger } from "@/lib/env";
import { type CallOutcome, warmCall } from "./call";

/** A call a source is ready to send now (its reservation is written), and where its outcome goes. */
export type Ticket = { call: PlannedCall; region: string; settle: (outcome: CallOutcome) => void };

/**
 * Something with calls to make for one account's site: a run. The engine asks it for calls while it
 * has room; the source decides which call comes next and what becomes of its outcome.
 */
export interface WarmSource {
  readonly accountId: number;
  readonly siteId: number;
  /** This source's calls in flight now. */
  inFlight: number;
  /** Most calls it may have in flight now (its adaptive window). */
  window(): number;
  /** No call before this time (Date.now() ms): a Retry-After pause. */
  notBefore(): number;
  /** The next call ready to go, or undefined when none is (reservations pending, or nothing left). */
  take(): Ticket | undefined;
}

type SiteGate = { limit: number; requestsPerSecond: number | null; inFlight: number; nextStart: number };
type AccountQueue = { sources: WarmSource[]; cursor: number };

/**
 * The worker's scheduler: keeps calls in flight for every source it holds, up to a worker-wide
 * budget, each site within its concurrency and rate, shared fairly: round-robin across accounts,
 * then across each account's sources, so that one account's million-call run never starves
 * another account's ten-URL warm. It knows no database: sources hand it calls.
 */
export class WarmEngine {
  private readonly sites = new Map<number, SiteGate>();
  private readonly accounts = new Map<number, AccountQueue>();
  private accountOrder: number[] = [];
  private accountCursor = 0;
  private pumping = false;
  private pumpQueued = false;
  private timer: NodeJS.Timeout | undefined;
  inFlight = 0;
  peakInFlight = 0;

  constructor(
    readonly maxInFlight: number,
    private readonly send: (call: PlannedCall, region: string) => Promise<CallOutcome> = warmCall,
  ) {}

  /** The site's limits, service-wide for this worker: concurrency and starts per second (null: none). */
  setSite(siteId: number, limit: number, requestsPerSecond: number | null): void {
    const gate = this.sites.get(siteId);
    if (gate) Object.assign(gate, { limit, requestsPerSecond });
    else this.sites.set(siteId, { limit, requestsPerSecond, inFlight: 0, nextStart: 0 });
  }

  siteInFlight(siteId: number): number {
    return this.sites.get(siteId)?.inFlight ?? 0;
  }

  /** Calls the site may still take now from this worker. */
  siteRoom(siteId: number): number {
    const gate = this.sites.get(siteId);
    return gate ? Math.max(0, gate.limit - gate.inFlight) : 0;
  }

  add(source: WarmSource): void {
    let queue = this.accounts.get(source.accountId);
    if (!queue) {
      this.accounts.set(source.accountId, (queue = { sources: [], cursor: 0 }));
      this.accountOrder.push(source.accountId);
    }
    queue.sources.push(source);
    this.pump();
  }

  remove(source: WarmSource): void {
    const queue = this.accounts.get(source.accountId);
    if (!queue) return;
    queue.sources = queue.sources.filter((s) => s !== source);
    if (queue.sources.length) return;
    this.accounts.delete(source.accountId);
    this.accountOrder = this.accountOrder.filter((id) => id !== source.accountId);
    if (![...this.accounts.values()].some((q) => q.sources.some((s) => s.siteId === source.siteId)) && !this.siteInFlight(source.siteId)) this.sites.delete(source.siteId);
  }

  /** Sends what may go now; called again whenever a call returns, a source gets calls, or a pause ends. */
  pump(): void {
    if (this.pumping) {
      this.pumpQueued = true;
      return;
    }
    this.pumping = true;
    try {
      do {
        this.pumpQueued = false;
        this.fill();
      } while (this.pumpQueued);
    } finally {
      this.pumping = false;
    }
  }

  private fill(): void {
    let earliest = Infinity;
    let idle = 0;
    while (this.inFlight < this.maxInFlight && this.accountOrder.length && idle < this.accountOrder.length) {
      const accountId = this.accountOrder[this.accountCursor % this.accountOrder.length]!;
      this.accountCursor = (this.accountCursor + 1) % this.accountOrder.length;
      const result = this.sendOne(this.accounts.get(accountId)!);
      if (result === true) idle = 0;
      else {
        idle++;
        earliest = Math.min(earliest, result);
      }
    }
    if (earliest !== Infinity && !this.timer) {
      this.timer = setTimeout(
        () => {
          this.timer = undefined;
          this.pump();
        },
        Math.max(1, earliest - Date.now()),
      );
    }
  }

  /** One call from the account's next source that may send; otherwise when one might (Date.now() ms, Infinity: not by time). */
  private sendOne(queue: AccountQueue): true | number {
    let earliest = Infinity;
    const now = Date.now();
    for (let tried = 0; tried < queue.sources.length; tried++) {
      const source = queue.sources[queue.cursor % queue.sources.length]!;
      queue.cursor = (queue.cursor + 1) % queue.sources.length;
      const gate = this.sites.get(source.siteId);
      if (!gate || gate.inFlight >= gate.limit || source.inFlight >= source.window()) continue;
      const wait = Math.max(source.notBefore(), gate.requestsPerSecond ? gate.nextStart : 0);
      if (wait > now) {
        earliest = Math.min(earliest, wait);
        continue;
      }
      const ticket = source.take();
      if (!ticket) continue;
      this.dispatch(source, gate, ticket, now);
      return true;
    }
    return earliest;
  }

  private dispatch(source: WarmSource, gate: SiteGate, ticket: Ticket, now: number): void {
    source.inFlight++;
    gate.inFlight++;
    if (gate.requestsPerSecond) gate.nextStart = Math.max(now, gate.nextStart) + 1000 / gate.requestsPerSecond;
    this.inFlight++;
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
    this.send(ticket.call, ticket.region).then((outcome) => {
      source.inFlight--;
      gate.inFlight--;
      this.inFlight--;
      ticket.settle(outcome);
      this.pump();
    });
  }
}

/** Calls in flight one worker process keeps across every run it holds (PREHEAT_WORKER_MAX_IN_FLIGHT). */
export function workerMaxInFlight(): number {
  return envInteger("PREHEAT_WORKER_MAX_IN_FLIGHT", 2000);
}

type Global = typeof globalThis & { __preheatWarmEngine?: WarmEngine };

/** The process's one engine. */
export function warmEngine(): WarmEngine {
  const g = globalThis as Global;
  g.__preheatWarmEngine ??= new WarmEngine(workerMaxInFlight());
  return g.__preheatWarmEngine;
}
