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
});
