import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { emailOutbox, sites } from "@/drizzle/schema";
import { startDnsServer } from "@/lib/testing/dns-server";
import { type LocalWorld, startLocalWorld } from "@/lib/testing/local-world";
import { ownershipRecheck } from "@/lib/worker/jobs/ownership-recheck";
import { queueDueOwnershipChecks, recheckOwnership } from "./recheck";
import { createSite, getSite, toSite } from "./service";
import { validateSite } from "./validate";

const DAY = 86_400_000;
/** What the site serves at its token file: the token while the owner keeps it, nothing once removed. */
let published: string | undefined;
/** The hosts the origin was asked for, one entry a request. */
const asked: string[] = [];
let world: LocalWorld;

beforeAll(async () => {
  world = await startLocalWorld(
    (req, res) => {
      asked.push(req.headers.host ?? "");
      if (published && req.url === `/${published}.html`) return void res.writeHead(200).end(published);
      res.writeHead(404).end("not found");
    },
    { email: "recheck@example.com" },
  );
}, 60_000);
afterAll(async () => world?.stop());

async function validatedSite(domain: string) {
  const site = await createSite(world.ctx, { domain });
  published = site.validationToken;
  expect(await validateSite(world.ctx, site.id)).toMatchObject({ validated: true });
  return site;
}

const jobCtx = () => ({ db: world.handle.db, final: true });

describe("ownership rechecks", () => {
  beforeEach(() => {
    published = undefined;
  });

  it("hands out a validated site once its period has passed, and not again on the next tick", async () => {
    const site = await validatedSite("due.example.com");
    const validatedAt = (await getSite(world.ctx, site.id)).validatedAt!;
    expect(await queueDueOwnershipChecks(world.handle.db, new Date(validatedAt.getTime() + 29 * DAY))).not.toContain(site.id);
    const later = new Date(validatedAt.getTime() + 30 * DAY + 1000);
    expect(await queueDueOwnershipChecks(world.handle.db, later)).toContain(site.id);
    expect(await queueDueOwnershipChecks(world.handle.db, new Date(later.getTime() + 60_000))).not.toContain(site.id);
  });

  it("keeps a site whose proof is still there", async () => {
    const site = await validatedSite("kept.example.com");
    expect(await recheckOwnership(world.handle.db, site.id)).toEqual({ outcome: "held" });
    expect(toSite(await getSite(world.ctx, site.id))).toMatchObject({ validated: true, ownership_recheck: { proof_missing_since: null } });
  });

  it("e-mails a 7-day notice when the proof is gone, then unvalidates the site, and says so on the site", async () => {
    const site = await validatedSite("gone.example.com");
    published = undefined;
    const start = new Date();
    expect(await ownershipRecheck({ siteId: site.id }, jobCtx())).toEqual({ outcome: "proof_lost" });
    const noticed = toSite(await getSite(world.ctx, site.id));
    expect(noticed.validated).toBe(true);
    expect(noticed.ownership_recheck.problem).toContain("Token file:");
    expect(Date.parse(noticed.ownership_recheck.unvalidates_at!) - Date.parse(noticed.ownership_recheck.proof_missing_since!)).toBe(7 * DAY);
    const [notice] = await world.handle.db.select().from(emailOutbox).where(eq(emailOutbox.template, "ownership-lost"));
    expect(notice).toMatchObject({ toAddress: "recheck@example.com" });
    expect(notice!.text).toContain("gone.example.com");

    // Checked daily meanwhile; a check before the 7 days are over changes nothing.
    expect(await queueDueOwnershipChecks(world.handle.db, new Date(start.getTime() + DAY + 1000))).toContain(site.id);
    expect(await recheckOwnership(world.handle.db, site.id, new Date(start.getTime() + 6 * DAY))).toEqual({ outcome: "still_missing" });
    expect((await getSite(world.ctx, site.id)).validated).toBe(true);

    expect((await recheckOwnership(world.handle.db, site.id, new Date(start.getTime() + 7 * DAY + 1000))).outcome).toBe("unvalidated");
    const after = toSite(await getSite(world.ctx, site.id));
    expect(after).toMatchObject({ validated: false, validated_at: null, ownership_recheck: { unvalidates_at: null, next_check_at: null } });
    expect(after.ownership_recheck.proof_missing_since).not.toBeNull();
  });

  it("ends the notice when the proof is back, whether a recheck or the owner finds it", async () => {
    const site = await validatedSite("back.example.com");
    const token = published;
    published = undefined;
    expect((await recheckOwnership(world.handle.db, site.id)).outcome).toBe("proof_lost");
    published = token;
    expect(await validateSite(world.ctx, site.id)).toMatchObject({ validated: true, method: "html_file" });
    expect(toSite(await getSite(world.ctx, site.id)).ownership_recheck).toMatchObject({ proof_missing_since: null, problem: null, unvalidates_at: null });

    published = undefined;
    expect((await recheckOwnership(world.handle.db, site.id)).outcome).toBe("proof_lost");
    published = token;
    expect(await recheckOwnership(world.handle.db, site.id)).toEqual({ outcome: "held" });
    const [row] = await world.handle.db.select().from(sites).where(eq(sites.id, site.id));
    expect(row).toMatchObject({ validated: true, ownershipLostAt: null });
  });

  it("rechecks a site proven by its DNS record in DNS first, without a request to the site, and tries every method once the record is gone", async () => {
    const site = await createSite(world.ctx, { domain: "dns-proven.test" });
    const record = ["_preheat-challenge.dns-proven.test", `preheat-site-verification=${site.validationToken}`] as [string, string];
    const dns = await startDnsServer({ txt: [record] });
    const saved = process.env.PREHEAT_DNS_SERVERS;
    try {
      process.env.PREHEAT_DNS_SERVERS = dns.server;
      expect(await validateSite(world.ctx, site.id)).toMatchObject({ validated: true, method: "dns_txt" });
      asked.length = 0;
      expect(await recheckOwnership(world.handle.db, site.id)).toEqual({ outcome: "held" });
      expect(asked.filter((host) => host.startsWith("dns-proven.test"))).toEqual([]);
      await dns.stop();
      const empty = await startDnsServer({}, dns.port);
      try {
        expect((await recheckOwnership(world.handle.db, site.id)).outcome).toBe("proof_lost");
        expect(asked.filter((host) => host.startsWith("dns-proven.test")).length).toBeGreaterThan(0);
        const [row] = await world.handle.db.select().from(sites).where(eq(sites.id, site.id));
        expect(row!.ownershipProblem).toContain("Token file: /");
        expect(row!.ownershipProblem).toContain("DNS TXT record: _preheat-challenge.dns-proven.test does not exist (NXDOMAIN).");
      } finally {
        await empty.stop();
      }
    } finally {
      await dns.stop();
      if (saved === undefined) delete process.env.PREHEAT_DNS_SERVERS;
      else process.env.PREHEAT_DNS_SERVERS = saved;
    }
  });
});
