import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { Agent, fetch as undiciFetch } from "undici";
import { expect, inject } from "vitest";
import type { OriginHost } from "@/lib/testing/origin";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../../../../..");

export const baseUrl = inject("baseUrl");
export const originUrl = inject("originUrl");

export type ApiResponse<T = any> = { status: number; body: T; headers: Headers };

export type RequestOptions = {
  key?: string | null;
  body?: unknown;
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  /** The local address the request leaves from (127.0.0.2 is the test server's trusted proxy). */
  from?: string;
};

const agents = new Map<string, Agent>();
/** A client on another loopback address: the server tells clients apart by the connection's address. */
export function fromAddress(address: string): Agent {
  let agent = agents.get(address);
  if (!agent) agents.set(address, (agent = new Agent({ localAddress: address })));
  return agent;
}

/** The test server trusts this address as its reverse proxy (PREHEAT_TRUSTED_PROXIES). */
export const TRUSTED_PROXY = "127.0.0.2";

/** One HTTP request to the running server, as an integrator makes it. */
export async function api<T = any>(method: string, pathname: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | Uint8Array | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers["content-type"] ??= "application/json";
  const response = options.from
    ? ((await undiciFetch(`${baseUrl}${pathname}`, { method, headers, body, dispatcher: fromAddress(options.from) })) as unknown as Response)
    : await fetch(`${baseUrl}${pathname}`, { method, headers, body: body as BodyInit | undefined });
  const text = await response.text();
  let parsed: unknown = null;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

/** The operator CLI, against the running server's database (the shared embedded one, or the PostgreSQL server). */
export async function cli(...args: string[]) {
  const result = await run(process.execPath, ["--import", "tsx", "lib/cli/main.ts", ...args], {
    cwd: root,
    env: { ...process.env, ...(inject("databaseUrl") ? { DATABASE_URL: inject("databaseUrl") } : { PREHEAT_DATA_DIR: inject("dataDir"), DATABASE_URL: "" }) },
  });
  return result.stdout;
}

/** The newest e-mail to an address, as text (the operator CLI reads the outbox). */
export async function lastEmailTo(address: string): Promise<string> {
  return cli("emails", "--to", address);
}

/** The e-mail's sign-up or sign-in link, pointed at the test server. */
export function linkIn(text: string): URL {
  const found = text.match(/https?:\/\/[^\s)"]+/g)?.find((url) => /\/signup\/confirm|\/api\/auth\/callback\//.test(url));
  if (!found) throw new Error(`no link in:\n${text}`);
  const url = new URL(found);
  return new URL(url.pathname + url.search, baseUrl);
}

export function uniqueEmail(label = "user"): string {
  return `${label}-${randomBytes(5).toString("hex")}@example.com`;
}

export function uniqueDomain(label = "shop"): string {
  return `${label}-${randomBytes(5).toString("hex")}.test`;
}

/** A new account with one key carrying `scopes` (`all` by default). */
export async function newKey(scopes = "all", email = uniqueEmail()): Promise<string> {
  return (await cli("keys", "create", "--email", email, "--scopes", scopes)).trim();
}

/** Describes what the local origin answers for `host`. */
export async function serveSite(host: string, site: OriginHost): Promise<void> {
  const response = await fetch(`${originUrl}/__origin/hosts/${encodeURIComponent(host)}`, { method: "PUT", body: JSON.stringify(site) });
  if (response.status !== 204) throw new Error(`origin refused the site description (${response.status})`);
}

export async function originLog(host: string): Promise<string[]> {
  return (await fetch(`${originUrl}/__origin/hosts/${encodeURIComponent(host)}`)).json() as Promise<string[]>;
}

/** The requests the origin received for `host`, each with the User-Agent it was sent with. */
export async function originUserAgents(host: string): Promise<{ request: string; user_agent: string }[]> {
  return (await fetch(`${originUrl}/__origin/hosts/${encodeURIComponent(host)}?user_agents=1`)).json() as Promise<{ request: string; user_agent: string }[]>;
}

/** The requests the origin received for `host`, each with the request headers named (null when absent). */
export async function originHeaders(host: string, names: string[]): Promise<{ request: string; headers: Record<string, string | null> }[]> {
  const query = new URLSearchParams({ headers: names.join(",") });
  return (await fetch(`${originUrl}/__origin/hosts/${encodeURIComponent(host)}?${query}`)).json() as Promise<{ request: string; headers: Record<string, string | null> }[]>;
}

export async function createSite(key: string, domain = uniqueDomain()) {
  const response = await api("POST", "/v1/sites", { key, body: { domain } });
  if (response.status !== 201) throw new Error(`site creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as { id: number; domain: string; validation_token: string; validated: boolean; verification_secret: string };
}

/** A site whose ownership proof (the token file) is served by the local origin and checked. */
export async function createValidatedSite(key: string, domain = uniqueDomain()) {
  const site = await createSite(key, domain);
  await serveSite(site.domain, { routes: { [`/${site.validation_token}.html`]: { body: site.validation_token } } });
  const validation = await api("POST", `/v1/sites/${site.id}/validate`, { key });
  if (validation.status !== 200) throw new Error(`validation failed: ${JSON.stringify(validation.body)}`);
  return { ...site, validated: true };
}

export async function addSitemap(key: string, siteId: number, url: string) {
  const response = await api("POST", `/v1/sites/${siteId}/sitemaps`, { key, body: { url } });
  if (response.status !== 201) throw new Error(`sitemap creation failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body as { id: number };
}

/** The run once it has ended (done, failed or paused), as GET /v1/runs/{id} answers it; fails the test after a minute. */
export async function endedRun(key: string, runId: number) {
  await expect
    .poll(async () => (await api("GET", `/v1/runs/${runId}`, { key })).body.status, { timeout: 60_000, interval: 200, message: `run ${runId} should have ended` })
    .toMatch(/^(done|failed|paused)$/);
  return (await api("GET", `/v1/runs/${runId}`, { key })).body;
}
