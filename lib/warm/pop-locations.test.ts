import { describe, expect, it } from "vitest";
import { knownPopCodes, popLocation, regionReach, warmedElsewhereSentence } from "./pop-locations";

describe("popLocation", () => {
  // One row per CDN, with the PoP code as lib/warm/cache-status.ts reads it from that CDN's headers.
  it.each([
    ["Cloudflare cf-ray suffix", "CDG", "FR", "EU"],
    ["CloudFront x-amz-cf-pop", "FRA", "DE", "EU"],
    ["Fastly x-served-by city", "LHR", "GB", "EU"],
    ["Fastly metro code", "PAR", "FR", "EU"],
    ["Vercel x-vercel-id", "IAD", "US", "NA"],
    ["Cloudflare in Madrid", "MAD", "ES", "EU"],
    ["Asia", "NRT", "JP", "AS"],
    ["Bunny region code", "DE1", "DE", "EU"],
    ["Bunny's UK", "UK2", "GB", "EU"],
    ["lower case", "sin", "SG", "AS"],
  ])("places %s (%s)", (_label, code, country, continent) => {
    expect(popLocation(code)).toEqual({ country, continent });
  });

  it("never guesses a code it does not know", () => {
    expect(popLocation("ZZZ")).toBeNull();
    expect(popLocation("XX9")).toBeNull();
  });

  it("places every code of its table on a continent", () => {
    for (const code of knownPopCodes()) expect(popLocation(code)?.continent, code).toMatch(/^(EU|NA|SA|AS|AF|OC)$/);
    expect(knownPopCodes().length).toBeGreaterThan(150);
  });
});

describe("regionReach", () => {
  it("is in the region when most placed calls were answered inside it (a country, or a continent for eu and as)", () => {
    expect(regionReach("fr", [{ pop: "CDG", calls: 5 }]).reached).toBe("in_region");
    expect(
      regionReach("eu", [
        { pop: "FRA", calls: 3 },
        { pop: "IAD", calls: 1 },
      ]).reached,
    ).toBe("in_region");
    expect(regionReach("as", [{ pop: "SIN", calls: 1 }]).reached).toBe("in_region");
  });

  it("is elsewhere when most were answered outside, and names where", () => {
    const reach = regionReach("de", [
      { pop: "CDG", calls: 4 },
      { pop: "FRA", calls: 1 },
    ]);
    expect(reach.reached).toBe("elsewhere");
    expect(reach.pops).toEqual([
      { pop: "CDG", calls: 4, country: "FR", continent: "EU", in_region: false },
      { pop: "FRA", calls: 1, country: "DE", continent: "EU", in_region: true },
    ]);
    expect(warmedElsewhereSentence("de", reach.pops)).toBe("de was warmed through CDG (France): its visitors' PoPs were not warmed.");
    expect(regionReach("us", [{ pop: "AMS", calls: 1 }]).reached).toBe("elsewhere");
  });

  it("is unknown when no answer named a PoP it can place", () => {
    expect(regionReach("fr", []).reached).toBe("unknown");
    expect(regionReach("fr", [{ pop: "QQQ", calls: 3 }])).toEqual({ pops: [{ pop: "QQQ", calls: 3, country: null, continent: null, in_region: null }], reached: "unknown" });
  });
});
