import { describe, expect, it } from "vitest";
import { negotiatedEncoding } from "@/lib/warm/visitors";
import { adviceFor, type VisitorCounts, visitorCause, type WarmedPlan } from "./advice";

const plan = (variations: WarmedPlan["variations"], requestProfile: WarmedPlan["requestProfile"] = null): WarmedPlan => ({ variations, requestProfile });
const missedAll = (over: Partial<VisitorCounts> = {}): VisitorCounts => ({ requests: 20, hits: 0, failed: 0, notCached: { miss: 20 }, blockedBy: {}, ...over });
const none = new Set<string>();

describe("why a visitor missed", () => {
  it("is nothing when it hit on 95 % of its requests or made none", () => {
    expect(visitorCause("chrome_desktop", missedAll({ hits: 19 }), plan(null), none)).toBeNull();
    expect(visitorCause("chrome_desktop", missedAll({ requests: 0 }), plan(null), none)).toBeNull();
  });

  it("names the bot protection, the errors or the uncacheable answers first", () => {
    expect(visitorCause("googlebot_smartphone", missedAll({ failed: 20, blockedBy: { cloudflare: 20 } }), plan(null), none)).toMatch(
      /^Blocked by Cloudflare's bot protection on 20 of them, though they carried the Preheat-Verification header/,
    );
    expect(visitorCause("firefox", missedAll({ failed: 15 }), plan(null), none)).toMatch(/answered 15 of them with an error/);
    expect(visitorCause("firefox", missedAll({ notCached: { cdn_bypass: 20 } }), plan({ user_agents: ["desktop"] }), none)).toMatch(/not cacheable \(cdn bypass\)/);
  });

  it("names a device class that was not warmed", () => {
    expect(visitorCause("safari_ios", missedAll(), plan({ user_agents: ["desktop"] }), none)).toBe('no mobile variant was warmed: add "mobile" to variations.user_agents');
  });

  it("names an encoding that was not warmed, from the encoding variants or the class's own", () => {
    expect(visitorCause("chrome_android", missedAll(), plan({ user_agents: ["mobile"] }), none)).toContain("Chrome Android asks for zstd, which was not warmed");
    expect(visitorCause("safari_ios", missedAll(), plan({ user_agents: ["mobile"], encodings: ["zstd", "gzip"] }), none)).toContain("Safari iOS asks for br, which was not warmed");
  });

  it("names the User-Agent when the device and the encoding were warmed", () => {
    expect(visitorCause("chrome_android", missedAll(), plan({ user_agents: ["mobile"], encodings: ["zstd"] }), new Set(["user-agent"]))).toMatch(/^answers vary on User-Agent/);
    expect(visitorCause("chrome_android", missedAll(), plan({ user_agents: ["mobile"], encodings: ["zstd"] }), none)).toMatch(/keys on the User-Agent itself.*custom_user_agents/);
    expect(visitorCause("chrome_desktop", missedAll(), plan(null), none)).toMatch(/did not keep what the warm fetched/);
  });
});

describe("the encoding a cache keys on", () => {
  it("is the best one the client accepts, leaving out q=0", () => {
    expect(negotiatedEncoding("gzip, deflate, br, zstd")).toBe("zstd");
    expect(negotiatedEncoding("gzip, deflate, br")).toBe("br");
    expect(negotiatedEncoding("gzip;q=1.0, br;q=0")).toBe("gzip");
    expect(negotiatedEncoding(undefined)).toBe("identity");
  });
});

describe("advice", () => {
  const base = { plan: plan({ languages: ["en-US"] }), answerHeaders: {}, variants: {}, visitors: null, blockedBy: {} };

  it("suggests languages when most answers vary on Accept-Language and one was warmed", () => {
    const advice = adviceFor({ ...base, answerHeaders: { answers: 10, "vary:accept-language": 10 } });
    expect(advice).toEqual([
      { code: "vary_accept_language", message: expect.stringContaining("one language was warmed (en-US): add the languages your visitors use to variations.languages, e.g. fr-FR, de-DE") },
    ]);
    expect(adviceFor({ ...base, plan: plan({ languages: ["en-US", "fr-FR"] }), answerHeaders: { answers: 10, "vary:accept-language": 10 } })).toEqual([]);
  });

  it("suggests cookie sets for a cookie set on nearly every page, but not for one the run carries nor for infrastructure cookies", () => {
    const answerHeaders = { answers: 40, "set-cookie:currency": 40, "set-cookie:__cf_bm": 40, "set-cookie:PHPSESSID": 40, "set-cookie:promo": 10 };
    expect(adviceFor({ ...base, answerHeaders })).toEqual([{ code: "set_cookie", message: expect.stringContaining("A `currency` cookie is set on 40 of 40 answers") }]);
    expect(adviceFor({ ...base, answerHeaders, plan: plan({ cookie_sets: [{ name: "USD", cookies: { currency: "USD" } }] }) })).toEqual([]);
    expect(adviceFor({ ...base, answerHeaders, plan: plan(null, { cookies: { currency: "EUR" } }) })).toEqual([]);
  });

  it("never reads a habit into fewer than 3 answers", () => {
    expect(adviceFor({ ...base, answerHeaders: { answers: 2, "vary:accept-language": 2, "vary:cookie": 2, "set-cookie:currency": 2 } })).toEqual([]);
  });

  it("names a variant that never hits while the others do", () => {
    const variants = { "desktop|||": { calls: 50, hits: 45 }, "bot|||": { calls: 50, hits: 0 } };
    expect(adviceFor({ ...base, variants })).toEqual([{ code: "variant_never_hits", message: expect.stringContaining("Calls as bot never hit (0 of 50) while 90 % of the others did") }]);
    // A cold cache misses on every variant: nothing to say.
    expect(adviceFor({ ...base, variants: { "desktop|||": { calls: 50, hits: 0 }, "bot|||": { calls: 50, hits: 0 } } })).toEqual([]);
  });

  it("puts blocks and visitors first", () => {
    const visitors = [{ profile: "chrome_android" as const, label: "Chrome Android", urls: 20, requests: 20, hits: 0, cause: "the cache likely keys on the encoding" }];
    const advice = adviceFor({ ...base, visitors, blockedBy: { cloudflare: 3 }, answerHeaders: { answers: 10, "vary:accept-language": 10 } });
    expect(advice.map((a) => a.code)).toEqual(["blocked", "visitors_missed", "vary_accept_language"]);
    expect(advice[1]!.message).toBe("Chrome Android visitors missed on 20 of 20: the cache likely keys on the encoding.");
  });
});
