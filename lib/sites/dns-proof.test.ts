import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type DnsServer, startDnsServer, startSilentDnsServer } from "@/lib/testing/dns-server";
import { DNS_DEADLINE_MS, dnsProof } from "./dns-proof";

// The DNS ownership proof against a real DNS server (Debian's dnsmasq) on 127.0.0.1: nothing is
// asked of any other resolver.

const token = "preheat-0123456789abcdef0123456789abcdef";
const value = `preheat-site-verification=${token}`;
let dns: DnsServer;

beforeAll(async () => {
  dns = await startDnsServer({
    txt: [
      ["_preheat-challenge.plain.test", value],
      // One record of several strings, as a long value is split: joined, it is the value.
      ["_preheat-challenge.split.test", "preheat-site-", "verification=", token],
      // Several records on the name: any one of them may be the proof.
      ["_preheat-challenge.several.test", "v=spf1 -all"],
      ["_preheat-challenge.several.test", value],
      ["_preheat-challenge.several.test", "another-service-verification=xyz"],
      ["_preheat-challenge.wrong.test", "preheat-site-verification=preheat-ffffffffffffffffffffffffffffffff"],
      ["delegated.dns-provider.test", value],
      // A record below the challenge name: the name exists, with no TXT record of its own.
      ["below._preheat-challenge.nodata.test", value],
    ],
    cname: [
      ["_preheat-challenge.cname.test", "delegated.dns-provider.test"],
      ["_preheat-challenge.chain.test", "hop.dns-provider.test"],
      ["hop.dns-provider.test", "delegated.dns-provider.test"],
    ],
  });
  process.env.PREHEAT_DNS_SERVERS = dns.server;
});

afterAll(async () => {
  await dns?.stop();
  delete process.env.PREHEAT_DNS_SERVERS;
});

afterEach(() => {
  process.env.PREHEAT_DNS_SERVERS = dns.server;
});

describe("dnsProof", () => {
  it("finds a plain record", async () => {
    expect(await dnsProof("plain.test", token)).toEqual({ proven: true });
  });

  it("ignores the site's port: a DNS name has none", async () => {
    expect(await dnsProof("plain.test:8080", token)).toEqual({ proven: true });
  });

  it("follows a CNAME, and a chain of them, to the name holding the record", async () => {
    expect(await dnsProof("cname.test", token)).toEqual({ proven: true });
    expect(await dnsProof("chain.test", token)).toEqual({ proven: true });
  });

  it("joins the strings of one record", async () => {
    expect(await dnsProof("split.test", token)).toEqual({ proven: true });
  });

  it("accepts the proof among other records of the name", async () => {
    expect(await dnsProof("several.test", token)).toEqual({ proven: true });
  });

  it("says the name does not exist (NXDOMAIN)", async () => {
    expect(await dnsProof("missing.test", token)).toEqual({ proven: false, why: "_preheat-challenge.missing.test does not exist (NXDOMAIN)" });
  });

  it("says the name has no TXT record when it exists without one", async () => {
    expect(await dnsProof("nodata.test", token)).toEqual({ proven: false, why: "_preheat-challenge.nodata.test has no TXT record" });
  });

  it("quotes what the name holds when no record is the proof", async () => {
    const outcome = await dnsProof("wrong.test", token);
    expect(outcome).toEqual({
      proven: false,
      why: `_preheat-challenge.wrong.test has no TXT record "${value}" (found "preheat-site-verification=preheat-ffffffffffffffffffffffffffffffff")`,
    });
    expect(await dnsProof("several.test", "preheat-other")).toMatchObject({ proven: false, why: expect.stringContaining('"v=spf1 -all"') });
  });

  it("gives up on a server that does not answer within the deadline, and says so", async () => {
    const silent = await startSilentDnsServer();
    try {
      process.env.PREHEAT_DNS_SERVERS = silent.server;
      const started = Date.now();
      const outcome = await dnsProof("plain.test", token);
      const took = Date.now() - started;
      expect(outcome).toEqual({ proven: false, why: `no DNS server answered within ${DNS_DEADLINE_MS / 1000} s` });
      expect(took).toBeGreaterThanOrEqual(DNS_DEADLINE_MS - 1000);
      expect(took).toBeLessThan(DNS_DEADLINE_MS + 1000);
      // The query was sent, and sent again: a lost packet alone does not fail the proof.
      expect(silent.queries()).toBeGreaterThanOrEqual(2);
    } finally {
      await silent.stop();
    }
  });

  it("says so when nothing listens where the resolver is", async () => {
    const closed = await startSilentDnsServer();
    await closed.stop();
    process.env.PREHEAT_DNS_SERVERS = closed.server;
    expect(await dnsProof("plain.test", token)).toEqual({ proven: false, why: "the DNS server refused the connection" });
  });

  it("asks the next server when the first does not answer", async () => {
    const silent = await startSilentDnsServer();
    try {
      process.env.PREHEAT_DNS_SERVERS = `${silent.server},${dns.server}`;
      expect(await dnsProof("plain.test", token)).toEqual({ proven: true });
    } finally {
      await silent.stop();
    }
  });
});
