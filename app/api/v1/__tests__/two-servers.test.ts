import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "@/lib/testing/ports";
import { type PostgresServer, startPostgresServer } from "@/lib/testing/postgres-server";
import { type ProductionServer, startProductionServer } from "@/lib/testing/production-server";
import { api, newKey } from "./support/api";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../../../..");

describe("RateLimit headers", () => {
  it("are on every answer: successes, errors, a wrong key, an unknown path", async () => {
    const key = await newKey();
    const answers = [
      await api("GET", "/v1/me", { key }),
      await api("GET", "/v1/sites/2000000000", { key }),
      await api("GET", "/v1/sites", { key: "phk_wrong" }),
      await api("GET", "/v1/no-such-thing", { key }),
      await api("DELETE", "/v1/me", { key }),
    ];
    for (const answer of answers) {
      expect(Number(answer.headers.get("ratelimit-limit")), String(answer.status)).toBe(1_000_000);
      expect(Number(answer.headers.get("ratelimit-remaining"))).toBeGreaterThan(0);
      const reset = Number(answer.headers.get("ratelimit-reset"));
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
    }
    const [first, second] = [await api("GET", "/v1/me", { key }), await api("GET", "/v1/me", { key })];
    expect(Number(second.headers.get("ratelimit-remaining"))).toBe(Number(first.headers.get("ratelimit-remaining")) - 1);
  });
});

describe("one server on the embedded database", () => {
  let server: ProductionServer;
  let key: string;

  beforeAll(async () => {
    const env = { PREHEAT_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "preheat-budget-")) };
    // Before the server starts, the CLI opens the database itself.
    const cliEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
    delete cliEnv.DATABASE_URL;
    const created = await run(process.execPath, ["--import", "tsx", "lib/cli/main.ts", "keys", "create", "--email", "budget@example.com", "--scopes", "all"], { cwd: root, env: cliEnv });
    key = created.stdout.trim();
    server = await startProductionServer(await freePort(), { ...env, PREHEAT_RATE_LIMIT_PER_MINUTE: "10", PREHEAT_EMBEDDED_WORKER: "false" });
  }, 240_000);

  afterAll(() => server?.stop());

  it("counts a key's requests to every route against one budget (kept in the server's memory)", async () => {
    const paths = ["/v1/me", "/v1/sites", "/v1/runs", "/v1/sites?limit=1"];
    const answers: Response[] = [];
    for (let i = 0; i < 12; i++) answers.push(await fetch(`${server.baseUrl}${paths[i % paths.length]}`, { headers: { authorization: `Bearer ${key}` } }));
    expect(answers.map((answer) => answer.status)).toEqual([...Array(10).fill(200), 429, 429]);
    expect(answers.map((answer) => Number(answer.headers.get("ratelimit-remaining")))).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0]);
    expect(await answers[11]!.json()).toMatchObject({ code: "rate_limited" });
  });
});

describe("two servers sharing one PostgreSQL server", () => {
  let database: PostgresServer;
  const servers: ProductionServer[] = [];
  let key: string;

  beforeAll(async () => {
    database = await startPostgresServer();
    const env = { DATABASE_URL: database.url };
    const created = await run(process.execPath, ["--import", "tsx", "lib/cli/main.ts", "keys", "create", "--email", "limits@example.com", "--scopes", "all"], {
      cwd: root,
      env: { ...process.env, ...env },
    });
    key = created.stdout.trim();
    // One after the other: the first applies the migrations.
    for (let i = 0; i < 2; i++) servers.push(await startProductionServer(await freePort(), { ...env, PREHEAT_RATE_LIMIT_PER_MINUTE: "10", PREHEAT_EMBEDDED_WORKER: "false" }));
  }, 240_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.stop();
  });

  it("counts requests to either server against one budget, then answers 429 with Retry-After", async () => {
    const answers: Response[] = [];
    for (let i = 0; i < 12; i++) answers.push(await fetch(`${servers[i % 2]!.baseUrl}/v1/me`, { headers: { authorization: `Bearer ${key}` } }));
    expect(answers.map((answer) => answer.status)).toEqual([...Array(10).fill(200), 429, 429]);
    expect(answers.map((answer) => Number(answer.headers.get("ratelimit-remaining")))).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0]);
    const refused = answers[10]!;
    expect(await refused.json()).toMatchObject({ code: "rate_limited" });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get("ratelimit-limit")).toBe("10");
  });

  /** A session on `server` through an e-mailed sign-in link, read from the outbox with the operator's CLI. */
  async function sessionByLink(server: ProductionServer, email: string): Promise<string> {
    const csrf = await fetch(`${server.baseUrl}/api/auth/csrf`);
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    await fetch(`${server.baseUrl}/api/auth/signin/email`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ csrfToken, email, json: "true" }),
    });
    const outbox = await run(process.execPath, ["--import", "tsx", "lib/cli/main.ts", "emails", "--to", email], { cwd: root, env: { ...process.env, DATABASE_URL: database.url } });
    const link = new URL(outbox.stdout.match(/https?:\/\/\S+\/api\/auth\/callback\/email\S+/)![0]);
    const followed = await fetch(`${server.baseUrl}${link.pathname}${link.search}`, { redirect: "manual" });
    return followed.headers
      .getSetCookie()
      .find((c) => c.startsWith("next-auth.session-token="))!
      .split(";")[0]!;
  }

  // Before the wrong keys below spend the client address's budget: a refused session draws on it.
  it("a session revoked on one server is refused at once by the other", async () => {
    const dashboard = { "x-preheat-dashboard": "1" };
    const here = await sessionByLink(servers[0]!, "limits@example.com");
    const there = await sessionByLink(servers[1]!, "limits@example.com");
    expect((await fetch(`${servers[0]!.baseUrl}/v1/sites`, { headers: { ...dashboard, cookie: here } })).status).toBe(200);
    const listed = (await (await fetch(`${servers[1]!.baseUrl}/api/dashboard/sessions`, { headers: { ...dashboard, cookie: there } })).json()) as { data: { id: string; current: boolean }[] };
    const other = listed.data.find((session) => !session.current)!;
    expect((await fetch(`${servers[1]!.baseUrl}/api/dashboard/sessions/${other.id}`, { method: "DELETE", headers: { ...dashboard, cookie: there } })).status).toBe(204);
    const refused = await fetch(`${servers[0]!.baseUrl}/v1/sites`, { headers: { ...dashboard, cookie: here } });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { code: string }).code).toBe("session_expired");
  });

  it("limits wrong keys too, by the client's address", async () => {
    // The servers' readiness probes came from this address already: count from what the first answer says is left.
    const answers: Response[] = [];
    for (let i = 0; i < 12; i++) answers.push(await fetch(`${servers[i % 2]!.baseUrl}/v1/sites`, { headers: { authorization: "Bearer phk_guess" } }));
    const left = Number(answers[0]!.headers.get("ratelimit-remaining"));
    expect(left).toBeLessThan(10);
    expect(answers.map((answer) => answer.status)).toEqual([...Array(left + 1).fill(401), ...Array(11 - left).fill(429)]);
    expect(answers.at(-1)!.headers.get("retry-after")).toMatch(/^\d+$/);
  });

  it("/readyz answers 503 while the database is down, and 200 again once it is back", async () => {
    const readyz = () => fetch(`${servers[0]!.baseUrl}/readyz`);
    expect((await readyz()).status).toBe(200);
    await database.pause();
    const down = await readyz();
    expect(down.status).toBe(503);
    expect((await down.json()).checks.database).not.toBe("ok");
    expect((await fetch(`${servers[0]!.baseUrl}/healthz`)).status).toBe(200);
    await database.resume();
    let status = 0;
    for (let i = 0; i < 75 && status !== 200; i++) {
      status = (await readyz()).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(status).toBe(200);
  }, 60_000);
});
