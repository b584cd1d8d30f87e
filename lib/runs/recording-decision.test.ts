import { describe, expect, it } from "vitest";
import type { FailureSample, Slowdown } from "@/lib/core/run-figures";
import { type BlockedFigures, blockedStopMessage } from "./blocked";
import { type DeltaToDecide, decideRecording, type LockedRun, type RecordingLimits, runsToJudge } from "./recording-decision";
import { AUTO_PAUSE, MAX_FAILURE_SAMPLES, MAX_SLOWDOWNS, pauseMessage, type ResultRow } from "./run-source";

/** No database: the rows as a recording would read them under their locks, and deltas as a worker would bring them. */
const ones = (n: number) => "1".repeat(n);
const zeros = (n: number) => "0".repeat(n);
const limits: RecordingLimits = { samples: MAX_FAILURE_SAMPLES, slowdowns: MAX_SLOWDOWNS, results: 100 };

const lockedRun = (run: Partial<LockedRun> = {}): LockedRun => ({ id: 1, status: "running", boostId: 7, recentOutcomes: "", resultsStored: 0, resultsMax: null, samples: 0, slowdowns: 0, ...run });

const sample = (i: number): FailureSample => ({ url: `https://shop.test/${i}`, region: "fr", user_agent: "desktop", language: null, status: 500, error: "HTTP 500" });
const slowdown = (i: number): Slowdown => ({ at: new Date(i * 1000).toISOString(), reason: "slower answers", concurrency: 4 });
const result = (i: number): ResultRow => ({
  batch_seq: 0,
  call_index: i,
  region: "fr",
  url: `https://shop.test/${i}`,
  user_agent: "desktop",
  language: null,
  cookie_set: null,
  encoding: null,
  status_code: 200,
  cache_status: "MISS",
  pop: "CDG",
  response_time_ms: 120,
  reason: "miss",
  blocked_by: null,
  shared_lifetime_seconds: 3600,
  age_seconds: 0,
  fresh_until: "2026-03-01T13:00:00.000Z",
});

/** One region's outcomes: `outcomes` and `blocks` as the worker strings them, `1` a failed (blocked) call. */
function delta({
  runId = 1,
  canPause = true,
  blockJudged = true,
  outcomes = "",
  blocks = zeros(outcomes.length),
  samples = 0,
  slowdowns = 0,
  results = 0,
}: {
  runId?: number;
  canPause?: boolean;
  blockJudged?: boolean;
  outcomes?: string;
  blocks?: string;
  samples?: number;
  slowdowns?: number;
  results?: number;
} = {}): DeltaToDecide {
  return {
    source: { runId, canPause, blockJudged },
    outcomes,
    blocks,
    samples: Array.from({ length: samples }, (_, i) => sample(i)),
    slowdowns: Array.from({ length: slowdowns }, (_, i) => slowdown(i)),
    batches: [{ results: Array.from({ length: results }, (_, i) => result(i)), verifications: [] }],
  };
}

const decide = (locked: LockedRun[], deltas: DeltaToDecide[], blockedSoFar = new Map<number, BlockedFigures>()) => decideRecording({ locked, deltas, blockedSoFar, limits });

describe("deciding a recording", () => {
  it("pauses a boost run, and its boost, once half of its last calls failed", () => {
    const window = zeros(10) + ones(10);
    const recording = decide([lockedRun({ recentOutcomes: zeros(10) })], [delta({ outcomes: ones(10) })]);
    expect(window.length).toBeGreaterThanOrEqual(AUTO_PAUSE.minCalls);
    expect(recording.decisions.get(1)).toEqual({ running: false, window, blockJudged: true });
    expect(recording.runValues).toEqual([{ id: 1, recent_outcomes: window, samples: [], slowdowns: [], stop_status: "paused", stop_message: pauseMessage(window), results: 0 }]);
    expect(recording.pausedBoosts).toEqual([7]);
    expect(recording.blockedRuns).toEqual([]);
  });

  it("keeps the window of the last calls only, and a run under the limit running", () => {
    const recording = decide([lockedRun({ recentOutcomes: ones(AUTO_PAUSE.window) })], [delta({ outcomes: zeros(AUTO_PAUSE.window / 2 + 1) })]);
    const window = ones(AUTO_PAUSE.window / 2 - 1) + zeros(AUTO_PAUSE.window / 2 + 1);
    expect(recording.decisions.get(1)).toEqual({ running: true, window, blockJudged: true });
    expect(recording.runValues).toMatchObject([{ recent_outcomes: window, stop_status: null, stop_message: null }]);
    expect(recording.pausedBoosts).toEqual([]);
  });

  it("never pauses a run that cannot (a warm, or a boost that ignores errors), nor writes its window", () => {
    const recording = decide([lockedRun({ boostId: null })], [delta({ canPause: false, outcomes: ones(AUTO_PAUSE.window) })]);
    expect(recording.decisions.get(1)).toEqual({ running: true, window: ones(AUTO_PAUSE.window), blockJudged: true });
    expect(recording.runValues).toEqual([]);
    expect(recording.pausedBoosts).toEqual([]);
  });

  it("stops a run blocked in its first calls as failed, with the vendor's message, instead of pausing it", () => {
    const outcomes = ones(25);
    const blocks = ones(20) + zeros(5);
    const figures = { calls: 25, blocked: 20, byVendor: { cloudflare: 20 } };
    const recording = decide([lockedRun()], [delta({ blockJudged: false, outcomes, blocks })], new Map([[1, figures]]));
    const message = blockedStopMessage("cloudflare", 20, 25);
    expect(message).toMatch(/^Blocked by Cloudflare's bot protection/);
    expect(recording.decisions.get(1)).toEqual({ running: false, window: outcomes, blockJudged: true });
    expect(recording.runValues).toMatchObject([{ id: 1, stop_status: "failed", stop_message: message }]);
    expect(recording.blockedRuns).toEqual([1]);
    expect(recording.blockedBoosts).toEqual([7]);
    expect(recording.pausedBoosts).toEqual([]);
  });

  it("lets a run whose first calls mostly got through carry on, judged", () => {
    const blocks = ones(5) + zeros(25);
    const recording = decide([lockedRun()], [delta({ blockJudged: false, outcomes: zeros(30), blocks })], new Map([[1, { calls: 30, blocked: 5, byVendor: { cloudflare: 5 } }]]));
    expect(recording.decisions.get(1)).toEqual({ running: true, window: zeros(30), blockJudged: true });
    expect(recording.blockedRuns).toEqual([]);
  });

  it("keeps samples, slowdowns and result rows only up to what the run may still store", () => {
    const recording = decide(
      [lockedRun({ samples: MAX_FAILURE_SAMPLES - 2, slowdowns: MAX_SLOWDOWNS - 1, resultsStored: limits.results - 3 })],
      [delta({ canPause: false, outcomes: ones(5), samples: 5, slowdowns: 4, results: 5 })],
    );
    expect(recording.runValues).toEqual([{ id: 1, recent_outcomes: null, samples: [sample(0), sample(1)], slowdowns: [slowdown(0)], stop_status: null, stop_message: null, results: 3 }]);
    expect(recording.resultRows).toEqual([0, 1, 2].map((i) => ({ run_id: 1, ...result(i) })));
  });

  it("keeps a run's result rows up to its plan's own bound when it has one, not the service's", () => {
    const recording = decide([lockedRun({ resultsMax: 4, resultsStored: 2 })], [delta({ canPause: false, outcomes: ones(5), results: 5 })]);
    expect(recording.resultRows).toEqual([0, 1].map((i) => ({ run_id: 1, ...result(i) })));
  });

  it("stores nothing more for a run already at its bounds, nor past them", () => {
    const recording = decide(
      [lockedRun({ samples: MAX_FAILURE_SAMPLES, slowdowns: MAX_SLOWDOWNS + 1, resultsStored: limits.results + 5 })],
      [delta({ canPause: false, outcomes: ones(5), samples: 5, slowdowns: 4, results: 5 })],
    );
    expect(recording.runValues).toEqual([]);
    expect(recording.resultRows).toEqual([]);
  });

  it("does not pause or stop again a run no longer running, and stops it here", () => {
    const recording = decide(
      [lockedRun({ status: "paused", recentOutcomes: ones(50) })],
      [delta({ blockJudged: false, outcomes: ones(25), blocks: ones(25) })],
      new Map([[1, { calls: 25, blocked: 25, byVendor: { akamai: 25 } }]]),
    );
    expect(recording.decisions.get(1)).toMatchObject({ running: false, window: ones(75) });
    expect(recording.runValues).toMatchObject([{ id: 1, stop_status: null, stop_message: null }]);
    expect(recording.pausedBoosts).toEqual([]);
    expect(recording.blockedRuns).toEqual([]);
  });

  it("reports a run absent from the locked rows as not running, and writes nothing of it", () => {
    const recording = decide([], [delta({ outcomes: ones(30), samples: 3, results: 2 })]);
    expect(recording.decisions.get(1)).toEqual({ running: false, window: "", blockJudged: true });
    expect(recording.runValues).toEqual([]);
    expect(recording.resultRows).toEqual([]);
  });

  it("decides a run warmed in two regions once, on both regions' outcomes", () => {
    const recording = decide([lockedRun()], [delta({ outcomes: ones(10) }), delta({ runId: 2, outcomes: zeros(3) }), delta({ outcomes: ones(10) })]);
    expect(recording.decisions.get(1)).toEqual({ running: false, window: ones(20), blockJudged: true });
    expect(recording.decisions.get(2)).toEqual({ running: false, window: "", blockJudged: true });
    expect(recording.runValues).toHaveLength(1);
    expect(recording.pausedBoosts).toEqual([7]);
  });

  it("asks the blocked calls so far only of runs with a region not judged yet", () => {
    expect(runsToJudge([delta({ runId: 1 }), delta({ runId: 2, blockJudged: false }), delta({ runId: 3 }), delta({ runId: 1, blockJudged: false })])).toEqual([1, 2]);
  });
});
