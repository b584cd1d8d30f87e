import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DnsServer, freeDnsPort, startDnsServer, startSilentDnsServer } from "@/lib/testing/dns-server";
import { freePort } from "@/lib/testing/ports";
import { type ProductionServer, startProductionServer } from "@/lib/testing/production-server";
import { originLog, originUrl, uniqueDomain } from "./support/api";

// POST /v1/sites/{id}/validate by the DNS TXT record, on the production build, against a real DNS
// server (Debian's dnsmasq) on 127.0.0.1. The suite's server is started before any record can be
// known (a record holds a site's token), so this file runs a server of its own whose resolver
// (PREHEAT_DNS_SERVERS) is the DNS server started here once the sites exist. Sites reach the
// suite's local origin over HTTP (which answers 404: no file, no meta tag) and find HTTPS refused.

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../../../..");
/** Each HTTP request of a validation may take 10 s (lib/sites/ownership.ts): a silent resolver must not cost more. */
const VALIDATION_TIME_LIMIT_MS = 10_000;

type Site = { id: number; domain: string; validation_token: string };

let server: ProductionServer;
let dataDir: string;
let key: string;
let dnsPort: number;
let dns: DnsServer | undefined;
const sites: Record<"plain" | "cname" | "split" | "several" | "missing" | "silent", Site> = {} as never;

async function call(method: string, pathname: string) {
  const response = await fetch(`${server.baseUrl}${pathname}`, { method, headers: { authorization: `Bearer ${key}` } });
  return { status: response.status, body: (await response.json()) as any };
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), "preheat-dns-"));
  const env = { PREHEAT_DATA_DIR: dataDir };
  // Before the server starts, the CLI opens the database itself.
  const cliEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete cliEnv.DATABASE_URL;
  key = (await run(process.execPath, ["--import", "tsx", "lib/cli/main.ts", "keys", "create", "--email", "dns@example.com", "--scopes", "all"], { cwd: root, env: cliEnv })).stdout.trim();
  dnsPort = await freeDnsPort();
  const originPort = new URL(originUrl).port;
  server = await startProductionServer(await freePort(), {
    ...env,
    PREHEAT_EMBEDDED_WORKER: "false",
    PREHEAT_ALLOW_PRIVATE_NETWORK: "true",
    PREHEAT_CONNECT_TO: `:80:127.0.0.1:${originPort},:443:127.0.0.1:${await freePort()}`,
    PREHEAT_DNS_SERVERS: `127.0.0.1:${dnsPort}`,
  });
  for (const name of Object.keys({ plain: 0, cname: 0, split: 0, several: 0, missing: 0, silent: 0 }) as (keyof typeof sites)[]) {
    const response = await fetch(`${server.baseUrl}/v1/sites`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ domain: uniqueDomain(`dns-${name}`) }),
    });
    expect(response.status).toBe(201);
    sites[name] = (await response.json()) as Site;
  }
  const value = (site: Site) => `preheat-site-verification=${site.validation_token}`;
  const token = sites.split.validation_token;
  dns = await startDnsServer(
    {
      txt: [
        [`_preheat-challenge.${sites.plain.domain}`, value(sites.plain)],
        ["verify.dns-host.test", value(sites.cname)],
        [`_preheat-challenge.${sites.split.domain}`, "preheat-site-verification=", token.slice(0, 20), token.slice(20)],
        [`_preheat-challenge.${sites.several.domain}`, "v=spf1 -all"],
        [`_preheat-challenge.${sites.several.domain}`, value(sites.several)],
      ],
      // A chain: the challenge name points at the DNS host's name, which points at the record.
      cname: [
        [`_preheat-challenge.${sites.cname.domain}`, "alias.dns-host.test"],
        ["alias.dns-host.test", "verify.dns-host.test"],
      ],
    },
    dnsPort,
  );
}, 240_000);

afterAll(async () => {
  await dns?.stop();
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("POST /v1/sites/{siteId}/validate by DNS TXT record", () => {
  it("validates a site whose challenge name holds the record, and records the method", async () => {
    const response = await call("POST", `/v1/sites/${sites.plain.id}/validate`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ validated: true, method: "dns_txt" });
    expect((await call("GET", `/v1/sites/${sites.plain.id}`)).body).toMatchObject({ validated: true, validation_method: "dns_txt" });
    // The HTTP methods were tried first, on the local origin only.
    expect(await originLog(sites.plain.domain)).toContain(`GET /${sites.plain.validation_token}.html`);
  });

  it("follows a chain of CNAMEs to the record", async () => {
    const response = await call("POST", `/v1/sites/${sites.cname.id}/validate`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ validated: true, method: "dns_txt" });
  });

  it("joins the several strings of one record", async () => {
    const response = await call("POST", `/v1/sites/${sites.split.id}/validate`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ validated: true, method: "dns_txt" });
  });

  it("finds the record among other TXT records of the name", async () => {
    const response = await call("POST", `/v1/sites/${sites.several.id}/validate`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ validated: true, method: "dns_txt" });
  });

  it("answers 422 for a name that does not exist (NXDOMAIN), saying why for each method", async () => {
    const site = sites.missing;
    const response = await call("POST", `/v1/sites/${site.id}/validate`);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ validated: false, code: "ownership_not_proven" });
    expect(response.body.error).toContain(`Token file: /${site.validation_token}.html answered 404, not 200.`);
    expect(response.body.error).toContain("Meta tag: the homepage answered 404.");
    expect(response.body.error).toContain(`DNS TXT record: _preheat-challenge.${site.domain} does not exist (NXDOMAIN).`);
    expect((await call("GET", `/v1/sites/${site.id}`)).body.validated).toBe(false);
  });

  // Last: the DNS server gives its port to one that never answers.
  it("answers a clear 422 naming the DNS method, within the validation's time limit, when the DNS server does not answer", async () => {
    await dns!.stop();
    dns = undefined;
    const silent = await startSilentDnsServer(dnsPort);
    try {
      const started = Date.now();
      const response = await call("POST", `/v1/sites/${sites.silent.id}/validate`);
      const took = Date.now() - started;
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ validated: false, code: "ownership_not_proven" });
      expect(response.body.error).toContain("DNS TXT record: no DNS server answered within 5 s.");
      expect(response.body.error).toContain("Token file:");
      expect(took).toBeLessThan(VALIDATION_TIME_LIMIT_MS);
      expect(silent.queries()).toBeGreaterThan(0);
    } finally {
      await silent.stop();
    }
  });
});
