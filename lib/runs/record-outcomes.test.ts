import { describe, expect, it } from "vitest";
import { recordingLimits, recordingParts } from "./record-outcomes";
import type { RunDelta } from "./run-source";

const delta = (runId: number, recorded: number, region = "eu") => ({ source: { runId, region }, recorded }) as unknown as RunDelta;
const shape = (parts: RunDelta[][]) => parts.map((part) => part.map((d) => `${d.source.runId}${d.source.region}`));

describe("a recording's parts, each a transaction of its own", () => {
  it("records a few runs in one transaction", () => {
    expect(shape(recordingParts([delta(1, 5), delta(2, 5)], recordingLimits(true)))).toEqual([["1eu", "2eu"]]);
    expect(recordingParts([], recordingLimits(true))).toEqual([]);
  });

  it("holds fewer outcomes in a part on the embedded database, whose transaction holds the only thread, than on a PostgreSQL server", () => {
    const deltas = Array.from({ length: 10 }, (_, i) => delta(i, 50));
    expect(recordingParts(deltas, recordingLimits(true))).toHaveLength(5);
    expect(recordingParts(deltas, recordingLimits(false))).toHaveLength(1);
  });

  it("bounds the runs of a part, and keeps a run's regions together whatever their order", () => {
    const deltas = [delta(1, 1), delta(2, 1), delta(1, 1, "us"), delta(3, 1), delta(2, 1, "us")];
    expect(shape(recordingParts(deltas, { runs: 2, outcomes: 100 }))).toEqual([["1eu", "1us", "2eu", "2us"], ["3eu"]]);
  });

  it("bounds the outcomes of a part, though a run with more than the bound goes whole in one", () => {
    const deltas = [delta(1, 60), delta(2, 60), delta(3, 500), delta(4, 10)];
    expect(shape(recordingParts(deltas, { runs: 10, outcomes: 100 }))).toEqual([["1eu"], ["2eu"], ["3eu"], ["4eu"]]);
  });

  it("holds every delta once, in the order given within a run", () => {
    const deltas = Array.from({ length: 1_000 }, (_, i) => delta(i % 450, 3, `r${Math.floor(i / 450)}`));
    const parts = recordingParts(deltas, { runs: 200, outcomes: 10_000 });
    expect(parts.flat()).toHaveLength(1_000);
    expect(new Set(parts.flat())).toEqual(new Set(deltas));
    expect(parts.map((part) => new Set(part.map((d) => d.source.runId)).size)).toEqual([200, 200, 50]);
  });
});
