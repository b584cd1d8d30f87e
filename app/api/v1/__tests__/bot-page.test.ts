import { describe, expect, it } from "vitest";
import { USER_AGENT_CLASSES } from "@/lib/core/variations";
import { USER_AGENTS } from "@/lib/warm/user-agents";
import { baseUrl } from "./support/api";

// /bot, the page a site's admin finds from the crawler's User-Agent: it names the visitors the forms offer, each with the exact User-Agent it sends.

describe("/bot", () => {
  it("lists every user-agent class the forms offer, with the User-Agent its calls send, and no other", async () => {
    const page = await (await fetch(`${baseUrl}/bot`)).text();
    const listed = page.slice(page.indexOf('data-testid="warming-user-agents"'));
    for (const agent of USER_AGENT_CLASSES) {
      expect(listed).toContain(`<dt class="font-medium">${agent}</dt>`);
      expect(listed).toContain(USER_AGENTS[agent]);
    }
    expect(listed.match(/<dt /g)).toHaveLength(USER_AGENT_CLASSES.length);
    expect(page).not.toContain("tablet");
  });

  it("says that validated sites are checked again, how often, and how to recognise those requests", async () => {
    const page = await (await fetch(`${baseUrl}/bot`)).text();
    const text = page
      .replace(/<[^>]+>/g, "")
      .replace(/&#x27;|&apos;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, "&");
    // The suite's server keeps the default period.
    expect(text).toContain("Preheat looks for it again every 30 days (the operator's PREHEAT_OWNERSHIP_RECHECK_DAYS)");
    const recheck = page.slice(page.indexOf('data-testid="recheck-requests"'));
    expect(recheck).toMatch(/PreheatBot\/\d+\.\d+\.\d+ \(\+http:\/\/[^)]+\/bot\)/);
    expect(text).toContain("GET /preheat-<32 hexadecimal digits>.html");
    expect(text).toContain("The DNS method makes no HTTP request");
  });
});
