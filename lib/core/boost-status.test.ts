import { describe, expect, it } from "vitest";
import { boostStatusWithRuns } from "./boost-status";

describe("boostStatusWithRuns", () => {
  it("is running while the newest run is queued or warming, whatever the boost's own status says yet", () => {
    expect(boostStatusWithRuns("active", { status: "pending" })).toBe("running");
    expect(boostStatusWithRuns("pending", { status: "running" })).toBe("running");
    expect(boostStatusWithRuns("paused", { status: "pending" })).toBe("running");
  });

  it("is not running once the newest run has ended: as the server sets it with the run's end", () => {
    expect(boostStatusWithRuns("running", { status: "done" })).toBe("active");
    expect(boostStatusWithRuns("running", { status: "failed" })).toBe("active");
    expect(boostStatusWithRuns("running", { status: "paused" })).toBe("paused");
  });

  it("is the boost's own status otherwise", () => {
    expect(boostStatusWithRuns("pending", null)).toBe("pending");
    expect(boostStatusWithRuns("active", { status: "done" })).toBe("active");
    expect(boostStatusWithRuns("paused", { status: "paused" })).toBe("paused");
    expect(boostStatusWithRuns("running", null)).toBe("active");
  });
});
