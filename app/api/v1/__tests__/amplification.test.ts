import { describe, expect, it } from "vitest";
import { api, createSite, createValidatedSite, newKey, serveSite } from "./support/api";

// Anyone may register any domain: until its ownership is proven, a site cannot be flooded through Preheat.

const everyRegion = ["fr", "de", "es", "gb", "us", "eu", "as"];
const everyAgent = ["mobile", "desktop", "bot", "ai_crawler"];
const languages = (n: number) => Array.from({ length: n }, (_, i) => `${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}-FR`);

describe("amplification", () => {
  it("refuses more than 20 languages on any site, validated or not", async () => {
    const key = await newKey();
    const site = await createValidatedSite(key);
    const response = await api("POST", `/v1/sites/${site.id}/boosts`, {
      key,
      body: { name: "Many", source_type: "csv", source_url: `http://${site.domain}/urls.csv`, region: everyRegion, variations: { user_agents: everyAgent, languages: languages(25) } },
    });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatch(/variations\.languages: must list at most 20 languages/);
    const warm = await api("POST", `/v1/sites/${site.id}/warm`, { key, body: { urls: [`http://${site.domain}/`], variations: { languages: languages(21) } } });
    expect(warm.status).toBe(422);
  });

  it("caps a boost of a site that is not validated, and says so in the boost, the trigger's answer and the run", async () => {
    const key = await newKey();
    const site = await createSite(key);
    const urls = Array.from({ length: 15 }, (_, i) => `http://${site.domain}/p/${i}`);
    await serveSite(site.domain, { routes: { "/urls.csv": { body: `url\n${urls.join("\n")}\n`, headers: { "content-type": "text/csv" } } }, fallback: { body: "page" } });
    const created = await api("POST", `/v1/sites/${site.id}/boosts`, {
      key,
      body: { name: "Flood", source_type: "csv", source_url: `http://${site.domain}/urls.csv`, region: everyRegion, variations: { user_agents: everyAgent, languages: languages(20) } },
    });
    expect(created.status).toBe(201);
    expect(created.body.unvalidated_limits).toMatchObject({ max_urls_per_run: 10, max_calls_per_run: 100, max_runs_per_day: 24, message: expect.stringMatching(/not validated/) });
    const triggered = await api("POST", `/v1/boosts/${created.body.id}/run`, { key });
    expect(triggered.status).toBe(202);
    expect(triggered.body.unvalidated_limits).toEqual(created.body.unvalidated_limits);
    let run: any;
    for (let i = 0; i < 150; i++) {
      run = (await api("GET", `/v1/runs/${triggered.body.run_id}`, { key })).body;
      if (["done", "failed", "paused"].includes(run.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(run.summary.total_calls).toBe(100);
    expect(run.status_message).toMatch(/at most 100 calls/);

    const validated = await createValidatedSite(key);
    const free = await api("POST", `/v1/sites/${validated.id}/boosts`, { key, body: { name: "Free", source_type: "csv", source_url: `http://${validated.domain}/urls.csv`, region: ["fr"] } });
    expect(free.body.unvalidated_limits).toBeNull();
  }, 60_000);
});
