import { describe, expect, it } from "vitest";
import { shareOf } from "./site-slots";

describe("shareOf: a site's limit split between the workers warming it", () => {
  it("gives a lone worker the whole limit", () => {
    expect(shareOf(4, "w1", [], 0)).toEqual({ grant: 4, keep: 4 });
  });

  it("splits evenly, the remainder to the first in worker-id order", () => {
    expect(shareOf(3, "a", [{ workerId: "b", slots: 1 }], 0)).toEqual({ grant: 2, keep: 2 });
    expect(shareOf(3, "b", [{ workerId: "a", slots: 2 }], 0)).toEqual({ grant: 1, keep: 1 });
  });

  it("never counts on slots another worker still holds, and keeps its own until its calls are back", () => {
    // b arrives while a holds all 4: b gets nothing until a has shrunk to its share.
    expect(shareOf(4, "b", [{ workerId: "a", slots: 4 }], 0)).toEqual({ grant: 0, keep: 0 });
    // a shrinks to 2 but has 3 calls in flight: it sends nothing new past 2 and holds 3 for now.
    expect(shareOf(4, "a", [{ workerId: "b", slots: 0 }], 3)).toEqual({ grant: 2, keep: 3 });
    expect(shareOf(4, "b", [{ workerId: "a", slots: 3 }], 0)).toEqual({ grant: 1, keep: 1 });
  });

  it("with more workers than slots, some wait with none", () => {
    expect(shareOf(1, "b", [{ workerId: "a", slots: 1 }], 0)).toEqual({ grant: 0, keep: 0 });
    expect(shareOf(1, "a", [{ workerId: "b", slots: 0 }], 0)).toEqual({ grant: 1, keep: 1 });
  });
});
