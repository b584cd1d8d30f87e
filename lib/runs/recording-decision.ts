import type { FailureSample, Slowdown } from "@/lib/core/run-figures";
import { type BlockedFigures, type BlockedJudgement, blockedStopMessage, judgeBlocked, mainVendor } from "./blocked";
import { AUTO_PAUSE, type BatchDelta, pauseMessage, type ResultRow, type RunDelta, type RunSource, shouldPause, type VerificationRow } from "./run-source";

/*
 * What one recording of the warm loop writes and what each run does next, decided from plain data:
 * the runs' rows as read under their locks, the outcomes the worker brings, and the blocked calls so
 * far. lib/runs/record-outcomes.ts reads those and writes the result.
 */

/** A run's row as the recording reads it, under its lock. `samples` and `slowdowns`: how many the run already keeps. */
export type LockedRun = { id: number; status: string; boostId: number | null; recentOutcomes: string; resultsStored: number; resultsMax: number | null; samples: number; slowdowns: number };

/** What the decision reads of a region's RunDelta: narrowed, so that a test can decide on plain objects. */
export type DeltaToDecide = Pick<RunDelta, "outcomes" | "blocks" | "samples" | "slowdowns"> & {
  source: Pick<RunSource, "runId" | "canPause" | "blockJudged">;
  batches: Pick<BatchDelta, "results" | "verifications">[];
};

/** How much of what its calls found a run keeps, whatever their number. */
export type RecordingLimits = { samples: number; slowdowns: number; results: number };

/** What the worker does with the run after the recording (RunSource.recorded): `running` false stops it here. */
export type RunDecision = { running: boolean; window: string; blockJudged: boolean };

/** One run's change, a row of the runs statement's recordset. */
type RunValues = {
  id: number;
  /** null: the run cannot pause, its window is left as it is. */
  recent_outcomes: string | null;
  samples: FailureSample[];
  slowdowns: Slowdown[];
  stop_status: "failed" | "paused" | null;
  stop_message: string | null;
  results: number;
};

export type Recording = {
  decisions: Map<number, RunDecision>;
  runValues: RunValues[];
  resultRows: (ResultRow & { run_id: number })[];
  verifications: (VerificationRow & { run_id: number })[];
  /** Boosts of the runs auto-paused now. */
  pausedBoosts: number[];
  /** Runs stopped now because bot protection blocked their first calls, and their boosts. */
  blockedRuns: number[];
  blockedBoosts: number[];
};

/** Nothing to judge: the run's first calls were judged by an earlier recording. */
const ALREADY_JUDGED: BlockedJudgement = { stop: false, judged: true, blocked: 0, calls: 0 };

/** A run warmed in several regions here has a delta per region: they are recorded as one. */
function groupByRun<D extends DeltaToDecide>(deltas: readonly D[]): Map<number, D[]> {
  const byRun = new Map<number, D[]>();
  for (const delta of deltas) byRun.set(delta.source.runId, [...(byRun.get(delta.source.runId) ?? []), delta]);
  return byRun;
}

/** The runs whose first calls are not judged yet: only they need their blocked calls so far. */
export function runsToJudge(deltas: readonly DeltaToDecide[]): number[] {
  return [...groupByRun(deltas)].filter(([, runDeltas]) => runDeltas.some((d) => !d.source.blockJudged)).map(([runId]) => runId);
}

/** What the recording writes once the batches are written, and what each run does next. */
export function decideRecording({
  locked,
  deltas,
  blockedSoFar,
  limits,
}: {
  locked: readonly LockedRun[];
  deltas: readonly DeltaToDecide[];
  /** For the runsToJudge, their totals as this recording leaves them. */
  blockedSoFar: ReadonlyMap<number, BlockedFigures>;
  limits: RecordingLimits;
}): Recording {
  const recording: Recording = { decisions: new Map(), runValues: [], resultRows: [], verifications: [], pausedBoosts: [], blockedRuns: [], blockedBoosts: [] };
  const byId = new Map(locked.map((run) => [run.id, run]));
  for (const [runId, runDeltas] of groupByRun(deltas)) {
    const run = byId.get(runId);
    // Deleted meanwhile: the worker drops it, and nothing of it is written.
    if (!run) recording.decisions.set(runId, { running: false, window: "", blockJudged: true });
    else decideRun(recording, run, runDeltas, blockedSoFar.get(runId), limits);
  }
  recording.verifications = deltas.flatMap((d) => d.batches.flatMap((b) => b.verifications.map((v) => ({ run_id: d.source.runId, ...v }))));
  return recording;
}

function decideRun(recording: Recording, run: LockedRun, runDeltas: DeltaToDecide[], figures: BlockedFigures | undefined, limits: RecordingLimits): void {
  const outcomes = runDeltas.map((d) => d.outcomes).join("");
  const window = (run.recentOutcomes + outcomes).slice(-AUTO_PAUSE.window);
  const running = run.status === "running";
  const judgement = figures ? judgeBlocked(figures, runDeltas.map((d) => d.blocks).join("")) : ALREADY_JUDGED;
  // Before the auto-pause: a blocked run fails whatever its error rate says, for what it is.
  const vendor = figures && mainVendor(figures.byVendor);
  const stop = running && judgement.stop && vendor ? blockedStopMessage(vendor, judgement.blocked, judgement.calls) : null;
  const canPause = runDeltas[0]!.source.canPause;
  const pause = !stop && canPause && running && shouldPause(window);
  const samples = runDeltas.flatMap((d) => d.samples).slice(0, Math.max(0, limits.samples - run.samples));
  const slowdowns = runDeltas.flatMap((d) => d.slowdowns).slice(0, Math.max(0, limits.slowdowns - run.slowdowns));
  // The run's calls, hits included, up to the run's bound; the summary keeps counting the rest.
  const results = runDeltas.flatMap((d) => d.batches.flatMap((b) => b.results)).slice(0, Math.max(0, (run.resultsMax ?? limits.results) - run.resultsStored));
  for (const row of results) recording.resultRows.push({ run_id: run.id, ...row });
  // The auto-pause window is kept only where it can pause the run.
  if ((canPause && outcomes) || pause || stop || samples.length || slowdowns.length || results.length) {
    recording.runValues.push({
      id: run.id,
      recent_outcomes: canPause ? window : null,
      samples,
      slowdowns,
      stop_status: stop ? "failed" : pause ? "paused" : null,
      stop_message: stop ?? (pause ? pauseMessage(window) : null),
      results: results.length,
    });
    if (pause && run.boostId) recording.pausedBoosts.push(run.boostId);
    if (stop) recording.blockedRuns.push(run.id);
    if (stop && run.boostId) recording.blockedBoosts.push(run.boostId);
  }
  recording.decisions.set(run.id, { running: running && !pause && !stop, window, blockJudged: judgement.judged });
}
