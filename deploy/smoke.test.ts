import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VARIABLES } from "@/lib/config/variables";
import { startOrigin } from "@/lib/testing/origin";
import { freePort } from "@/lib/testing/ports";
import { type PostgresServer, startPostgresServer } from "@/lib/testing/postgres-server";
import { type ProductionServer, startProductionServer } from "@/lib/testing/production-server";

/**
 * The deployment of docs/guide/operators/installing.md, on one machine: one PostgreSQL server, two web servers
 * (`next start` of the build, PREHEAT_EMBEDDED_WORKER=false), two worker processes (one of them
 * regional) and nginx from Debian in front, with deploy/nginx/preheat.conf. Everything a user does
 * goes through nginx, over HTTP only.
 */

const root = path.resolve(import.meta.dirname, "..");
const run = promisify(execFile);
const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx";
const METRICS_TOKEN = `metrics-${randomBytes(8).toString("hex")}`;
/** The regional worker's region; the other worker takes every other region. */
const REGIONAL = "de";

/** This process's environment without what must not leak into the children (as production-server.ts does). */
function baseEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
  for (const name of ["DATABASE_URL", "NODE_OPTIONS", "RESEND_API_KEY", "NEXTAUTH_URL", "INNGEST_EVENT_KEY", "INNGEST_DEV", "PREHEAT_WORKER_REGIONS", "PREHEAT_DATA_DIR"]) delete env[name];
  return env;
}

// ---- The deployment --------------------------------------------------------------------------------

type Child = { name: string; process: ChildProcess; output: () => string };

function startChild(name: string, command: string, args: string[], env: NodeJS.ProcessEnv): Child {
  let output = "";
  const child = spawn(command, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  return { name, process: child, output: () => output };
}

async function stopChild(child: Child, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  const { process: proc } = child;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.once("exit", resolve));
  proc.kill(signal);
  const timer = setTimeout(() => proc.kill("SIGKILL"), 30_000);
  await exited;
  clearTimeout(timer);
}

async function waitFor(what: string, check: () => Promise<boolean> | boolean, child?: Child, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child && child.process.exitCode !== null) throw new Error(`${child.name} exited (${child.process.exitCode}) before ${what}:\n${child.output()}`);
    try {
      if (await check()) return;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${child ? `:\n${child.output()}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * deploy/nginx/preheat.conf as shipped, with only what a machine changes: the web servers' ports
 * (3001, 3002 → the test's), the listen line (127.0.0.1 and a free port) and the log directory.
 */
function renderSite(conf: string, options: { webPorts: [number, number]; listenPort: number; logDir: string }): string {
  const ports: Record<string, number> = { "3001": options.webPorts[0], "3002": options.webPorts[1] };
  let rendered = conf.replace(/127\.0\.0\.1:(300\d)\b/g, (_match, port: string) => {
    if (!(port in ports)) throw new Error(`unexpected web server port ${port} in preheat.conf`);
    return `127.0.0.1:${ports[port]}`;
  });
  const listens = rendered.match(/^\s*listen\s+(80|\[::\]:80);$/gm) ?? [];
  if (listens.length !== 2) throw new Error(`preheat.conf should listen on 80 and [::]:80, found ${JSON.stringify(listens)}`);
  rendered = rendered.replace(/^(\s*)listen\s+80;$/m, `$1listen 127.0.0.1:${options.listenPort};`).replace(/^\s*listen\s+\[::\]:80;\n/m, "");
  if (!rendered.includes("/var/log/nginx/")) throw new Error("preheat.conf should log under /var/log/nginx/");
  return rendered.replaceAll("/var/log/nginx/", `${options.logDir}/`);
}

/** A whole nginx configuration around the site: its own pid, logs and temporary files under `dir`. */
function nginxMainConf(dir: string, sitePath: string): string {
  return [
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log info;`,
    "worker_processes 1;",
    "events { worker_connections 512; }",
    "http {",
    `  access_log ${dir}/access.log;`,
    ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((kind) => `  ${kind}_temp_path ${dir}/${kind}_temp;`),
    `  include ${sitePath};`,
    "}",
    "",
  ].join("\n");
}

let database: PostgresServer | undefined;
let origin: Awaited<ReturnType<typeof startOrigin>> | undefined;
const servers: ProductionServer[] = [];
const serverLogs: string[] = [];
const children: Child[] = [];
let workers: { regional: Child; general: Child };
let nginx: Child;
let nginxDir: string;
let base: string;
let webPorts: [number, number];
let databaseUrl: string;

async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

beforeAll(async () => {
  if (!existsSync(path.join(root, ".next", "BUILD_ID"))) throw new Error("No production build: run `npm run build` first (npm test does).");
  if (!existsSync(NGINX)) throw new Error(`nginx is not installed at ${NGINX} (apt-get install nginx; npm test installs it as root).`);

  database = await startPostgresServer();
  databaseUrl = database.url;
  origin = await startOrigin();
  const [closedPort, nginxPort, portA, portB] = await distinctFreePorts(4);
  webPorts = [portA!, portB!];
  base = `http://127.0.0.1:${nginxPort}`;
  nginxDir = mkdtempSync(path.join(tmpdir(), "preheat-nginx-"));
  // Run as root, nginx's workers run as nobody: they must reach the temporary directories.
  chmodSync(nginxDir, 0o755);

  // What /etc/preheat/preheat.env holds on every machine (deploy/preheat.env.example), plus the local origin.
  const env = {
    DATABASE_URL: databaseUrl,
    PREHEAT_BASE_URL: base,
    NEXTAUTH_SECRET: randomBytes(32).toString("base64"),
    PREHEAT_SECRETS_KEY: randomBytes(32).toString("hex"),
    PREHEAT_TRUSTED_PROXIES: "127.0.0.1",
    PREHEAT_METRICS_TOKEN: METRICS_TOKEN,
    PREHEAT_ALLOW_PRIVATE_NETWORK: "true",
    PREHEAT_CONNECT_TO: `:80:127.0.0.1:${origin.port},:443:127.0.0.1:${closedPort}`,
  };

  // The web servers, one after the other: the first applies the migrations.
  for (const port of webPorts) {
    const logFile = path.join(nginxDir, `web-${port}.log`);
    serverLogs.push(logFile);
    servers.push(await startProductionServer(port, { ...env, PREHEAT_EMBEDDED_WORKER: "false" }, { logFile }));
  }

  // nginx in front of both, with the shipped site.
  const sitePath = path.join(nginxDir, "preheat.conf");
  writeFileSync(sitePath, renderSite(readFileSync(path.join(root, "deploy/nginx/preheat.conf"), "utf8"), { webPorts, listenPort: nginxPort!, logDir: nginxDir }));
  const mainPath = path.join(nginxDir, "nginx.conf");
  writeFileSync(mainPath, nginxMainConf(nginxDir, sitePath));
  const nginxArgs = ["-p", nginxDir, "-e", path.join(nginxDir, "error.log"), "-c", mainPath];
  execFileSync(NGINX, [...nginxArgs, "-t", "-q"], { stdio: "pipe" });
  nginx = startChild("nginx", NGINX, [...nginxArgs, "-g", "daemon off;"], baseEnv());
  children.push(nginx);

  // The workers, as preheat-worker@.service runs them: the regional one first, so that the other,
  // when it starts, sees that region taken.
  const workerEnv = (extra: Record<string, string> = {}) => ({ ...baseEnv(), ...env, ...extra });
  const workerArgs = ["--import", "tsx", "lib/worker/main.ts"];
  const ready = (child: Child) => waitFor(`${child.name} to work the queue`, () => child.output().includes("[worker] working the job queue"), child);
  const regional = startChild("the regional worker", process.execPath, workerArgs, workerEnv({ PREHEAT_WORKER_REGIONS: REGIONAL }));
  children.push(regional);
  await ready(regional);
  const general = startChild("the worker", process.execPath, workerArgs, workerEnv());
  children.push(general);
  await ready(general);
  workers = { regional, general };

  await waitFor("nginx to answer", async () => (await fetch(`${base}/healthz`)).status === 200, nginx);
}, 420_000);

afterAll(async () => {
  // Workers first (they sign off in the database), then nginx, the web servers, the origin, the database.
  for (const child of [...children].reverse()) await stopChild(child);
  await Promise.all(servers.map((server) => server.stop()));
  await origin?.close();
  await database?.stop();
  if (nginxDir) rmSync(nginxDir, { recursive: true, force: true });
}, 120_000);

// ---- Talking to it, through nginx only ------------------------------------------------------------

type Answer<T = any> = { status: number; body: T; headers: Headers };

const agents = new Map<string, Agent>();
/** A client connecting from another loopback address (nginx passes it on in X-Forwarded-For). */
function from(address: string): Agent {
  let agent = agents.get(address);
  if (!agent) agents.set(address, (agent = new Agent({ localAddress: address })));
  return agent;
}

async function call<T = any>(
  method: string,
  pathname: string,
  options: { key?: string; body?: unknown; form?: Record<string, string>; headers?: Record<string, string>; cookie?: string; from?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.cookie) headers.cookie = options.cookie;
  let body: string | undefined;
  if (options.form) {
    body = new URLSearchParams(options.form).toString();
    headers["content-type"] = "application/x-www-form-urlencoded";
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["content-type"] = "application/json";
  }
  const response = (await undiciFetch(`${base}${pathname}`, { method, headers, body, redirect: "manual", dispatcher: from(options.from ?? "127.0.0.1") })) as unknown as Response;
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON
  }
  return { status: response.status, body: parsed as T, headers: response.headers };
}

function cookiesOf(answer: Answer, names?: RegExp): string {
  return answer.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0]!)
    .filter((pair) => !names || names.test(pair.split("=")[0]!))
    .join("; ");
}

/** The operator CLI on this machine, against the PostgreSQL server (as docs/guide/operators/operator-console.md runs it). */
async function cli(...args: string[]): Promise<string> {
  const result = await run(process.execPath, ["--import", "tsx", "lib/cli/main.ts", ...args], { cwd: root, env: { ...baseEnv(), DATABASE_URL: databaseUrl } });
  return result.stdout;
}

async function metricsText(pathname: string): Promise<string> {
  const answer = await call("GET", pathname, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(answer.status, pathname).toBe(200);
  expect(answer.headers.get("content-type")).toMatch(/^text\/plain/);
  return answer.body as string;
}

/** The value of one sample line (`name{labels} value`), or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

function sumOf(text: string, name: string): number {
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .reduce((total, line) => total + Number(line.split(/\s+/).at(-1)), 0);
}

// ---- The journey ------------------------------------------------------------------------------------

const email = `owner-${randomBytes(4).toString("hex")}@example.com`;
const password = "a long enough password";
const domain = `shop-${randomBytes(4).toString("hex")}.test`;
let session: string;
let key: string;
let siteId: number;
let runId: number;

describe("a site owner's first session, through nginx", () => {
  it("signs up, confirms the e-mailed link naming the organization and choosing the password, and signs in with it", async () => {
    const signUp = await call("POST", "/api/dashboard/signup", { body: { email } });
    expect(signUp.status).toBe(201);
    expect(signUp.body).toMatchObject({ email, confirmation_sent: true });

    // No e-mail transport: the operator reads the link in the outbox with the CLI.
    const mail = await cli("emails", "--to", email);
    expect(mail).toMatch(/Confirm your address/);
    const link = mail.match(/https?:\/\/[^\s)"]+\/signup\/confirm[^\s)"]*/)?.[0];
    expect(link, mail).toBeTruthy();
    // The link names the public address (PREHEAT_BASE_URL): nginx here.
    expect(link!.startsWith(`${base}/`)).toBe(true);
    const token = new URL(link!).searchParams.get("token");
    const confirmed = await call("POST", "/api/dashboard/signup/confirm", { body: { token, password, organization_name: "Smoke test" } });
    expect(confirmed).toMatchObject({ status: 201, body: { email, created: true } });

    // next-auth's credentials sign-in, as the sign-in page makes it.
    const csrf = await call("GET", "/api/auth/csrf");
    expect(csrf.status).toBe(200);
    const signIn = await call("POST", "/api/auth/callback/password", {
      cookie: cookiesOf(csrf),
      form: { csrfToken: csrf.body.csrfToken, email, password, json: "true" },
    });
    expect(signIn.status, JSON.stringify(signIn.body)).toBe(200);
    expect(new URL(signIn.body.url).searchParams.get("error")).toBeNull();
    session = cookiesOf(signIn, /^next-auth\.session-token/);
    expect(session).toMatch(/^next-auth\.session-token/);
  });

  it("creates an API key with the session; the session holds on either web server", async () => {
    const dashboard = { "x-preheat-dashboard": "1" };
    const created = await call("POST", "/api/dashboard/keys", {
      cookie: session,
      headers: dashboard,
      body: { name: "smoke", scopes: ["sites:read", "sites:write", "boosts:read", "boosts:write", "runs:read"] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    key = created.body.key;
    expect(key).toMatch(/^phk_/);
    // nginx takes turns: these land on both servers, which share the secret that signs sessions.
    for (let i = 0; i < 4; i++) {
      const listed = await call("GET", "/api/dashboard/keys", { cookie: session, headers: dashboard });
      expect(listed.status).toBe(200);
      expect(listed.body.data.map((k: { name: string }) => k.name)).toEqual(["smoke"]);
    }
    const me = await call("GET", "/v1/me", { key });
    expect(me.status).toBe(200);
  });

  it("sees the regional worker: its region's calls leave through it", async () => {
    const me = await call("GET", "/v1/me", { key });
    const egress = Object.fromEntries((me.body.regions as { code: string; egress: string }[]).map((r) => [r.code, r.egress]));
    expect(egress[REGIONAL]).toBe("worker");
    expect(egress.fr).toBe("local");
  });

  it("registers a site and proves it owns it (the token file on the origin)", async () => {
    const site = await call("POST", "/v1/sites", { key, body: { domain } });
    expect(site.status, JSON.stringify(site.body)).toBe(201);
    siteId = site.body.id;
    const put = await fetch(`http://127.0.0.1:${origin!.port}/__origin/hosts/${domain}`, {
      method: "PUT",
      body: JSON.stringify({
        routes: { [`/${site.body.validation_token}.html`]: { body: site.body.validation_token } },
        fallback: { status: 200, body: "<html>a page</html>", headers: { "cache-control": "public, max-age=300", "x-cache": "MISS" } },
      }),
    });
    expect(put.status).toBe(204);
    const validated = await call("POST", `/v1/sites/${siteId}/validate`, { key });
    expect(validated.status, JSON.stringify(validated.body)).toBe(200);
    expect((await call("GET", `/v1/sites/${siteId}`, { key })).body.validated).toBe(true);
  });

  it("warms a few URLs: the separate workers do it, the regional one its region", async () => {
    const paths = ["/", "/products/a", "/products/b"];
    const warm = await call("POST", `/v1/sites/${siteId}/warm`, { key, body: { urls: paths.map((p) => `http://${domain}${p}`), region: ["fr", REGIONAL] } });
    expect(warm.status, JSON.stringify(warm.body)).toBe(202);
    runId = warm.body.run_id;

    let detail: Answer | undefined;
    await waitFor(
      "the run to end",
      async () => {
        detail = await call("GET", `/v1/runs/${runId}`, { key });
        return ["done", "failed", "paused"].includes(detail.body.status);
      },
      undefined,
      90_000,
    );
    expect(detail!.body.status, JSON.stringify(detail!.body)).toBe("done");
    const breakdown = Object.fromEntries((detail!.body.regions_breakdown as { region: string; total_calls: number; successful_calls: number; egress: string }[]).map((r) => [r.region, r]));
    expect(breakdown.fr).toMatchObject({ total_calls: 3, successful_calls: 3, egress: "local" });
    expect(breakdown[REGIONAL]).toMatchObject({ total_calls: 3, successful_calls: 3, egress: "worker" });

    const requests = (await (await fetch(`http://127.0.0.1:${origin!.port}/__origin/hosts/${domain}`)).json()) as string[];
    for (const p of paths)
      expect(
        requests.filter((request) => request === `GET ${p}`),
        p,
      ).toHaveLength(2);

    // Each worker logged the warming job it worked (the line comes once the job has also done what
    // follows the run's end: its events, a follow-up); the web servers worked none.
    for (const worker of [workers.regional, workers.general]) await waitFor(`${worker.name}'s run.batch log line`, () => /"job":"run\.batch"/.test(worker.output()), worker, 30_000);
    for (const log of serverLogs) expect(readFileSync(log, "utf8")).not.toMatch(/"job":"run\./);
  });
});

describe("operations, through nginx", () => {
  it("answers /healthz and /readyz (database and job queue)", async () => {
    expect(await call("GET", "/healthz")).toMatchObject({ status: 200, body: { status: "ok" } });
    for (let i = 0; i < 2; i++) {
      const ready = await call("GET", "/readyz");
      expect(ready).toMatchObject({ status: 200, body: { status: "ready", checks: { database: "ok", jobs: "ok" } } });
    }
  });

  it("serves /metrics with the token only", async () => {
    expect((await call("GET", "/metrics")).status).toBe(401);
    expect((await call("GET", "/metrics", { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    const text = await metricsText("/metrics");
    expect(text).toMatch(/^# TYPE preheat_http_requests_total counter$/m);
    expect(text).toMatch(/^# TYPE preheat_warming_calls_total counter$/m);
    // The run is over: the service-wide gauge, read from the database by whichever server answers.
    expect(sample(text, "preheat_active_runs", { type: "warm" })).toBe(0);
  });

  it("exposes each web server's own metrics: both served, neither made a warming call", async () => {
    const perServer = await Promise.all(["/metrics/3001", "/metrics/3002"].map(metricsText));
    for (const text of perServer) {
      expect(sumOf(text, "preheat_http_requests_total")).toBeGreaterThan(0);
      expect(sample(text, "preheat_http_requests_total", { method: "GET", status: "200" })).toBeGreaterThan(0);
      // Warming calls are counted by the process that makes them: the workers.
      expect(sumOf(text, "preheat_warming_calls_total")).toBe(0);
      expect(sample(text, "preheat_active_runs", { type: "warm" })).toBe(0);
    }
  });

  it("keeps the client's X-Request-Id, or gives one, on every answer; the server's log names it", async () => {
    const id = `smoke-${randomBytes(6).toString("hex")}`;
    const kept = await call("GET", "/v1/me", { key, headers: { "x-request-id": id } });
    expect(kept.status).toBe(200);
    expect(kept.headers.get("x-request-id")).toBe(id);
    // One header, not nginx's and the server's.
    expect(kept.headers.get("x-request-id")).not.toContain(",");
    const logged = () => serverLogs.map((log) => readFileSync(log, "utf8")).join("\n");
    await waitFor("the request's log line", () => logged().includes(`"request_id":"${id}"`));
    const line = logged()
      .split("\n")
      .find((l) => l.includes(`"request_id":"${id}"`))!;
    expect(JSON.parse(line)).toMatchObject({ request_id: id, method: "GET", status: 200 });

    for (const pathname of ["/v1/me", "/healthz", "/readyz"]) {
      const given = await call("GET", pathname, { key });
      expect(given.headers.get("x-request-id"), pathname).toMatch(/^[0-9a-f]{32}$/);
      // Not a sensible id (spaces, too long): replaced, as Preheat itself would.
      const replaced = await call("GET", pathname, { key, headers: { "x-request-id": "x".repeat(200) } });
      expect(replaced.headers.get("x-request-id"), pathname).toMatch(/^[0-9a-f]{32}$/);
    }
    expect((await call("GET", "/healthz", { headers: { "x-request-id": id } })).headers.get("x-request-id")).toBe(id);
  });

  it("lets the web servers read the client from X-Forwarded-For (PREHEAT_TRUSTED_PROXIES), never from the client's own header", async () => {
    // A wrong key spends the client address's budget: two clients behind nginx have one each.
    let limit = 0;
    const remaining = async (address: string, headers: Record<string, string> = {}) => {
      const answer = await call("GET", "/v1/sites", { key: "phk_not-a-key", from: address, headers });
      expect(answer.status).toBe(401);
      limit = Number(answer.headers.get("ratelimit-limit"));
      return Number(answer.headers.get("ratelimit-remaining"));
    };
    const first = await remaining("127.0.0.3");
    // A fresh budget: the client's own, not nginx's address's.
    expect(first).toBe(limit - 1);
    expect(await remaining("127.0.0.3")).toBe(first - 1);
    // A client naming another address is still itself (nginx appends the address it saw).
    expect(await remaining("127.0.0.3", { "x-forwarded-for": "203.0.113.9" })).toBe(first - 2);
    expect(await remaining("127.0.0.4")).toBe(first);
  });

  it("lets a body over 2 MiB through to Preheat, which answers 413 itself", async () => {
    const big = await call("POST", `/v1/sites/${siteId}/warm`, { key, body: { urls: [`http://${domain}/${"x".repeat(2 * 1024 * 1024)}`] } });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: "payload_too_large" });
  });
});

// ---- The files themselves -----------------------------------------------------------------------

describe("the deployment files", () => {
  it("name only variables Preheat reads, with the essential ones set", () => {
    const example = readFileSync(path.join(root, "deploy/preheat.env.example"), "utf8");
    const set = [...example.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
    const mentioned = [...example.matchAll(/^#([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
    for (const name of [...set, ...mentioned]) expect(Object.keys(VARIABLES), name).toContain(name);
    expect(set).toEqual(
      expect.arrayContaining(["DATABASE_URL", "PREHEAT_BASE_URL", "NEXTAUTH_SECRET", "PREHEAT_SECRETS_KEY", "PREHEAT_TRUSTED_PROXIES", "PREHEAT_METRICS_TOKEN", "RESEND_API_KEY", "EMAIL_FROM"]),
    );
    expect(set).not.toContain("PREHEAT_EMBEDDED_WORKER");
  });

  it("run what the smoke suite runs", () => {
    const web = readFileSync(path.join(root, "deploy/systemd/preheat-web@.service"), "utf8");
    expect(web).toMatch(/^ExecStart=.*PREHEAT_EMBEDDED_WORKER=false .*node_modules\/next\/dist\/bin\/next start -p %i -H 127\.0\.0\.1$/m);
    const worker = readFileSync(path.join(root, "deploy/systemd/preheat-worker@.service"), "utf8");
    const manifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> };
    // `npm run worker` is `tsx lib/worker/main.ts`; the unit runs the same entry with tsx's loader.
    const entry = manifest.scripts.worker!.split(/\s+/).at(-1)!;
    expect(worker).toMatch(new RegExp(`^ExecStart=/usr/bin/node --import tsx /opt/preheat/${entry.replaceAll(".", "\\.")}$`, "m"));
    expect(worker).toMatch(/^EnvironmentFile=-\/etc\/preheat\/worker-%i\.env$/m);
    const docs = readFileSync(path.join(root, "docs/guide/operators/configuration.md"), "utf8");
    const start = docs.indexOf("<!-- config:start -->");
    expect(start).toBeGreaterThan(0);
    expect(docs.indexOf("<!-- config:end -->")).toBeGreaterThan(start);
  });

  it.skipIf(!existsSync("/usr/bin/systemd-analyze"))("are units systemd accepts", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "preheat-units-"));
    try {
      for (const [template, instance] of [
        ["preheat-web@.service", "preheat-web@3001.service"],
        ["preheat-worker@.service", "preheat-worker@frankfurt.service"],
      ]) {
        writeFileSync(path.join(dir, template!), readFileSync(path.join(root, "deploy/systemd", template!)));
        writeFileSync(path.join(dir, instance!), readFileSync(path.join(root, "deploy/systemd", template!)));
      }
      const result = await run("/usr/bin/systemd-analyze", ["verify", "--man=no", path.join(dir, "preheat-web@3001.service"), path.join(dir, "preheat-worker@frankfurt.service")], { cwd: dir }).catch(
        (error: { stderr?: string; code?: number }) => ({ stderr: error.stderr ?? String(error), failed: true }),
      );
      expect("failed" in result ? result.stderr : "").toBe("");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
