import type { PlannedCall } from "@/lib/core/calls";
import { setting } from "@/lib/config";
import { type CallOutcome, warmCall } from "./call";
import type { RunRequest } from "./run-request";

/** A call a source is ready to send now (its reservation is written), and where its outcome goes. */
export type Ticket = { call: PlannedCall; region: string; request: RunRequest; settle: (outcome: CallOutcome) => void };

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
  /** Its calls go before the account's other sources' (a site's changes): a lane within the same site limits. */
  readonly urgent?: boolean;
}

/** `leaseUntil`: performance.now() ms after which the worker's share of the site may be the others' (lib/warm/site-slots.ts). */
type SiteGate = { limit: number; requestsPerSecond: number | null; inFlight: number; nextStart: number; leaseUntil: number };
type AccountQueue = { sources: WarmSource[]; cursor: number; urgent: number };

/** Calls the site may still take from this worker at `leaseNow` (performance.now() ms): none once its lease has lapsed. */
function roomOf(gate: SiteGate, leaseNow: number): number {
  return leaseNow < gate.leaseUntil ? Math.max(0, gate.limit - gate.inFlight) : 0;
}

/**
 * The worker's scheduler: keeps calls in flight for every source it holds, up to a worker-wide
 * budget, each site within its concurrency and rate, shared fairly: round-robin across accounts,
 * then across each account's sources, so that one account's million-call run never starves
 * another account's ten-URL warm. It knows no database: sources hand it calls.
 */
export class WarmEngine {
  private readonly sites = new Map<number, SiteGate>();
  private readonly accounts = new Map<number, AccountQueue>();
  /**
   * Accounts that may have a call to send now. A returning call wakes only the accounts warming its
   * site, so that with thousands of runs held a returning call does not scan every source of every
   * account.
   */
  private readonly awake = new Set<number>();
  /** For each site, its sources' accounts (with a count of their sources there). */
  private readonly siteAccounts = new Map<number, Map<number, number>>();
  private pumping = false;
  private pumpQueued = false;
  private timer: NodeJS.Timeout | undefined;
  inFlight = 0;
  peakInFlight = 0;

  constructor(
    readonly maxInFlight: number,
    private readonly send: (call: PlannedCall, region: string, request: RunRequest) => Promise<CallOutcome> = warmCall,
  ) {}

  /**
   * The site's limits, service-wide for this worker: concurrency and starts per second (null: none),
   * until `leaseUntil` (performance.now() ms). A worker whose renewal is late (a stalled process)
   * sends nothing more to the site until it renews: its share may be another worker's by then.
   */
  setSite(siteId: number, limit: number, requestsPerSecond: number | null, leaseUntil: number): void {
    const gate = this.sites.get(siteId);
    if (gate) Object.assign(gate, { limit, requestsPerSecond, leaseUntil });
    else this.sites.set(siteId, { limit, requestsPerSecond, inFlight: 0, nextStart: 0, leaseUntil });
    this.wakeSite(siteId);
  }

  /**
   * Lowers the site's limit here at once (a renewal shrinking this worker's share) and answers the
   * calls in flight: read in the same instant, so that none leaves between what the renewal records
   * as held and the new limit.
   */
  lowerSite(siteId: number, limit: number): number {
    const gate = this.sites.get(siteId);
    if (!gate) return 0;
    gate.limit = Math.min(gate.limit, limit);
    return gate.inFlight;
  }

  private wakeSite(siteId: number): void {
    for (const accountId of this.siteAccounts.get(siteId)?.keys() ?? []) this.awake.add(accountId);
  }

  /** The worker gave the site's slots back: its gate goes (the next run there gets new slots first). */
  dropSite(siteId: number): void {
    if (!this.siteAccounts.has(siteId) && !this.siteInFlight(siteId)) this.sites.delete(siteId);
  }

  siteInFlight(siteId: number): number {
    return this.sites.get(siteId)?.inFlight ?? 0;
  }

  /** Calls the site may take at once from this worker (its share of the site's limit); 0 before it has one. */
  siteLimit(siteId: number): number {
    return this.sites.get(siteId)?.limit ?? 0;
  }

  /** Calls the site may still take now from this worker. */
  siteRoom(siteId: number): number {
    const gate = this.sites.get(siteId);
    return gate ? roomOf(gate, performance.now()) : 0;
  }

  add(source: WarmSource): void {
    let queue = this.accounts.get(source.accountId);
    if (!queue) this.accounts.set(source.accountId, (queue = { sources: [], cursor: 0, urgent: 0 }));
    queue.sources.push(source);
    if (source.urgent) queue.urgent++;
    const accounts = this.siteAccounts.get(source.siteId) ?? new Map<number, number>();
    accounts.set(source.accountId, (accounts.get(source.accountId) ?? 0) + 1);
    this.siteAccounts.set(source.siteId, accounts);
    this.pump([source]);
  }

  remove(source: WarmSource): void {
    const queue = this.accounts.get(source.accountId);
    if (!queue) return;
    const before = queue.sources.length;
    queue.sources = queue.sources.filter((s) => s !== source);
    if (source.urgent && queue.sources.length < before) queue.urgent--;
    const accounts = this.siteAccounts.get(source.siteId);
    const left = (accounts?.get(source.accountId) ?? 1) - 1;
    if (left > 0) accounts!.set(source.accountId, left);
    else accounts?.delete(source.accountId);
    if (accounts && !accounts.size) this.siteAccounts.delete(source.siteId);
    if (queue.sources.length) return;
    this.awake.delete(source.accountId);
    this.accounts.delete(source.accountId);
  }

  /**
   * Sends what may go now; called again whenever a call returns, a source gets calls, or a pause
   * ends. `changed`: the sources that may have calls now (by default, any source may).
   */
  pump(changed?: readonly WarmSource[]): void {
    if (changed) for (const source of changed) this.awake.add(source.accountId);
    else for (const accountId of this.accounts.keys()) this.awake.add(accountId);
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
    // Round-robin over the accounts that are awake (the set keeps their order: an account that sent
    // goes to the back), one call each; an account with nothing to send now sleeps until one of
    // its sites has room or its sources get calls.
    while (this.inFlight < this.maxInFlight && this.awake.size) {
      const accountId = this.awake.values().next().value!;
      this.awake.delete(accountId);
      const queue = this.accounts.get(accountId);
      if (!queue) continue;
      const result = this.sendOne(queue);
      if (result === true) this.awake.add(accountId);
      else earliest = Math.min(earliest, result);
    }
    if (earliest !== Infinity && !this.timer) {
      this.timer = setTimeout(
        () => {
          this.timer = undefined;
          this.pump(); // a pause or a rate's spacing ended: any account may send
        },
        Math.max(1, earliest - Date.now()),
      );
    }
  }

  /**
   * One call from the account's next source that may send; otherwise when one might (Date.now() ms,
   * Infinity: not by time). Its urgent sources are asked first: a site's changes take the site's
   * room before its other runs do, within the same concurrency and pace.
   */
  private sendOne(queue: AccountQueue): true | number {
    let earliest = Infinity;
    const now = Date.now();
    const leaseNow = performance.now();
    if (queue.urgent > 0) {
      for (const source of queue.sources) {
        if (!source.urgent) continue;
        const sent = this.trySource(source, now, leaseNow);
        if (sent === true) return true;
        earliest = Math.min(earliest, sent);
      }
    }
    for (let tried = 0; tried < queue.sources.length; tried++) {
      const source = queue.sources[queue.cursor % queue.sources.length]!;
      queue.cursor = (queue.cursor + 1) % queue.sources.length;
      const sent = this.trySource(source, now, leaseNow);
      if (sent === true) return true;
      earliest = Math.min(earliest, sent);
    }
    return earliest;
  }

  /** Sends the source's next call if its site has room now; otherwise when it might (Date.now() ms, Infinity: not by time). */
  private trySource(source: WarmSource, now: number, leaseNow: number): true | number {
    const gate = this.sites.get(source.siteId);
    // A lapsed lease waits for the next renewal, which wakes the site's accounts.
    if (!gate || roomOf(gate, leaseNow) === 0 || source.inFlight >= source.window()) return Infinity;
    const wait = Math.max(source.notBefore(), gate.requestsPerSecond ? gate.nextStart : 0);
    if (wait > now) return wait;
    const ticket = source.take();
    if (!ticket) return Infinity;
    this.dispatch(source, gate, ticket, now);
    return true;
  }

  private dispatch(source: WarmSource, gate: SiteGate, ticket: Ticket, now: number): void {
    source.inFlight++;
    gate.inFlight++;
    if (gate.requestsPerSecond) gate.nextStart = Math.max(now, gate.nextStart) + 1000 / gate.requestsPerSecond;
    this.inFlight++;
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
    this.send(ticket.call, ticket.region, ticket.request).then((outcome) => {
      source.inFlight--;
      gate.inFlight--;
      this.inFlight--;
      ticket.settle(outcome);
      this.wakeSite(source.siteId);
      // Accounts left awake when the worker's budget filled are still awake: the freed budget is theirs.
      this.pump([]);
    });
  }
}

/** Calls in flight one worker process keeps across every run it holds (PREHEAT_WORKER_MAX_IN_FLIGHT). */
export function workerMaxInFlight(): number {
  return setting("PREHEAT_WORKER_MAX_IN_FLIGHT");
}

type Global = typeof globalThis & { __preheatWarmEngine?: WarmEngine };

/** The process's one engine. */
export function warmEngine(): WarmEngine {
  const g = globalThis as Global;
  g.__preheatWarmEngine ??= new WarmEngine(workerMaxInFlight());
  return g.__preheatWarmEngine;
}
