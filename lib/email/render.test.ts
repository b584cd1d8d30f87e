import { describe, expect, it } from "vitest";
import { renderEmail } from "./render";
import { reportProps } from "./fixtures";
import { runReportProps } from "./templates/run-report";

describe("the run report", () => {
  it("says how the run went in the subject", async () => {
    expect((await renderEmail("run-report", reportProps)).subject).toBe('Boost "Nightly" on shop.test: done — 98% success, 40% cache hits');
    const empty = { ...reportProps, status: "failed" as const, summary: { ...reportProps.summary, total_calls: 0, successful_calls: 0, failed_calls: 0, cache_hits: 0, pops: {} } };
    expect((await renderEmail("run-report", empty)).subject).toBe('Boost "Nightly" on shop.test: failed — no calls made');
  });

  it("renders the figures, the top five PoPs, five failure samples and the link", async () => {
    const { html, text } = await renderEmail("run-report", reportProps);
    expect(html).toContain("Run 2 of boost “Nightly” on shop.test finished");
    for (const expected of ["Success rate: 98%", "Cache-hit ratio: 40%", "Average response time: 123 ms", "Calls: 2,000 (1,960 succeeded, 40 failed)", "Regions: fr, de", "Duration: 2 min 5 s"]) {
      expect(text).toContain(expected);
    }
    // Top five by calls, busiest first; the sixth (AMS, 10 calls) is left out.
    const pops = ["CDG", "FRA", "LHR", "MAD", "WAW"].map((pop) => text.indexOf(pop));
    expect(pops.every((at, i) => at > 0 && (i === 0 || at > pops[i - 1]!))).toBe(true);
    expect(text).toContain("CDG: 1,200 calls, 42% hits, hit 38 ms / miss 290 ms");
    expect(text).toContain("WAW: 20 calls, 10% hits, hit 60 ms / miss –");
    expect(text).toContain("Warm vs cold: 41 ms per hit, 313 ms per cacheable miss");
    expect(text).toContain("Verified: 690 of 700 cacheable misses asked again were hits");
    // Why the rest stayed cold, most calls first, each with what to do.
    const reasons = ["Cacheable miss: 700", "Sets a cookie: 300", "Varies per visitor: 160", "HTTP error: 40"].map((line) => text.indexOf(line));
    expect(reasons.every((at, i) => at > 0 && (i === 0 || at > reasons[i - 1]!))).toBe(true);
    expect(text).toContain("stop setting cookies on anonymous page views");
    expect(text).not.toContain("AMS");
    for (const i of [1, 2, 3, 4, 5]) expect(text).toContain(`https://shop.test/broken-${i}`);
    expect(text).not.toContain("broken-6");
    expect(text).toContain("fr, mobile: timeout");
    expect(text).toContain("fr, mobile, fr-FR, HTTP 500: HTTP 500");
    // Named by its ordinal within the boost; the link goes by its id.
    expect(text).toContain("Open run 2");
    expect(html).toContain('href="https://preheat.test/runs/7"');
    expect(text).toContain("https://preheat.test/runs/7");
    expect(html).not.toMatch(/<img|https?:\/\/(?!preheat\.test|shop\.test)[^"\s]*\.(png|jpe?g|gif|svg)/);
  });

  it("shows the status message of a failed or paused run", async () => {
    const { html, text } = await renderEmail("run-report", { ...reportProps, status: "paused", statusMessage: "Paused: 55 of the last 100 calls failed." });
    expect(html).toContain("on shop.test was paused");
    expect(text).toContain("Paused: 55 of the last 100 calls failed.");
  });

  it("still renders a report queued before runs were numbered", async () => {
    const { runNumber: _, ...queuedBefore } = reportProps;
    const { html, text } = await renderEmail("run-report", queuedBefore);
    expect(html).toContain("Boost “Nightly” on shop.test finished");
    expect(text).toContain("Open the run");
  });

  it("refuses a link that a mail client cannot open", () => {
    expect(runReportProps.safeParse({ ...reportProps, runUrl: "/runs/7" }).success).toBe(false);
    expect(runReportProps.safeParse({ ...reportProps, runUrl: "javascript:alert(1)" }).success).toBe(false);
  });
});
