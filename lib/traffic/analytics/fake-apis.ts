import { randomBytes, type KeyObject } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { decodeJwt, type JWTPayload, jwtVerify } from "jose";

/**
 * Local stand-ins for Plausible's Stats API v2 and Google's token endpoint and Analytics Data API,
 * for the analytics clients' tests: they check requests as the real APIs do and answer with the
 * shapes those APIs document (success, errors, rate limits). A test may replace the answer to the
 * n-th request (`answerOn`) to fail a given page.
 */

type Received = { method: string; path: string; headers: http.IncomingHttpHeaders; body: string };
/** `body`: JSON unless it is a string, which is sent as it is. */
export type Answer = { status: number; body?: unknown; headers?: Record<string, string> };

abstract class FakeApi {
  readonly requests: Received[] = [];
  private readonly scripted = new Map<number, Answer | "hang">();
  private readonly server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const received = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body };
      this.requests.push(received);
      const scripted = this.scripted.get(this.requests.length);
      if (scripted === "hang") return;
      Promise.resolve(scripted ?? this.answer(received)).then((answer) => {
        const text = typeof answer.body === "string" ? answer.body : answer.body === undefined ? "" : JSON.stringify(answer.body);
        res.writeHead(answer.status, { "content-type": "application/json; charset=utf-8", ...answer.headers }).end(text);
      });
    });
  });

  protected abstract answer(request: Received): Answer | Promise<Answer>;

  /** Listens on 127.0.0.1; answers its base URL. */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return this.url;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** The n-th request from now (1 = the next) gets this answer instead, or none at all ("hang"). */
  answerOn(n: number, answer: Answer | "hang"): void {
    this.scripted.set(this.requests.length + n, answer);
  }

  reset(): void {
    this.requests.length = 0;
    this.scripted.clear();
  }
}

/** The body as a JSON object ({} when it is not one). */
function json(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Pages in the order both APIs were asked for: most viewed first, then by path. */
function ordered(pages: Record<string, number>): Array<[string, number]> {
  return Object.entries(pages).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0));
}

/** Plausible's own words (PlausibleWeb.Plugs.AuthorizePublicAPI). */
export const PLAUSIBLE_INVALID_KEY = "Invalid API key or site ID. Please make sure you're using a valid API key with access to the site you've requested.";

/** Plausible's Stats API v2: `POST /api/v2/query`, Bearer key, `{ results, meta, query }` or `{ error }`. */
export class FakePlausible extends FakeApi {
  /** site_id → the keys that may read it, and its pageviews per page. */
  readonly sites = new Map<string, { keys: string[]; pages: Record<string, number> }>();

  protected answer(request: Received): Answer {
    if (request.method !== "POST" || request.path !== "/api/v2/query") return { status: 404, body: { error: "Not found" } };
    const auth = request.headers.authorization;
    if (!auth?.startsWith("Bearer ")) return { status: 401, body: { error: "Missing API key. Please use a valid Plausible API key as a Bearer Token." } };
    const query = json(request.body);
    if (typeof query.site_id !== "string") return { status: 400, body: { error: "Missing site ID. Please provide the required site_id parameter with your request." } };
    const site = this.sites.get(query.site_id);
    // Plausible answers alike for a wrong key and for a site it does not know or the key cannot see.
    if (!site?.keys.includes(auth.slice("Bearer ".length).trim())) return { status: 401, body: { error: PLAUSIBLE_INVALID_KEY } };
    const { limit = 10_000, offset = 0 } = (query.pagination ?? {}) as { limit?: number; offset?: number };
    if (JSON.stringify(query.metrics) !== '["pageviews"]' || JSON.stringify(query.dimensions) !== '["event:page"]' || query.date_range !== "30d") {
      return { status: 400, body: { error: "#/metrics: not the query the tests expect" } };
    }
    if (!Number.isInteger(limit) || limit < 1 || limit > 10_000 || !Number.isInteger(offset) || offset < 0) {
      return { status: 400, body: { error: "#/pagination: Invalid pagination" } };
    }
    const rows = ordered(site.pages).slice(offset, offset + limit);
    return {
      status: 200,
      body: {
        results: rows.map(([page, views]) => ({ metrics: [views], dimensions: [page] })),
        meta: {},
        query: { ...query, date_range: ["2026-10-30T00:00:00+00:00", "2026-11-28T23:59:59+00:00"], filters: [], include: {}, pagination: { offset, limit } },
      },
    };
  }
}

const PERMISSION_DENIED = {
  code: 403,
  message: "User does not have sufficient permissions for this property. To learn more about Property ID, see https://developers.google.com/analytics/devguides/reporting/data/v1/property-id.",
  status: "PERMISSION_DENIED",
};

/**
 * Google's token endpoint (`POST /token`, a JWT bearer grant verified with the service account's
 * public key) and the Data API (`POST /v1beta/properties/{id}:runReport`), on one server.
 */
export class FakeGoogle extends FakeApi {
  /** client_email → its public key; `revoked`: the key was deleted (Google then says "Invalid JWT Signature."). */
  readonly accounts = new Map<string, { publicKey: KeyObject; revoked?: boolean }>();
  /** Property id → the service accounts given a role on it, and its views per page path. */
  readonly properties = new Map<string, { viewers: string[]; pages: Record<string, number> }>();
  /** The claims and header of each assertion verified. */
  readonly assertions: Array<{ header: Record<string, unknown>; claims: JWTPayload }> = [];
  private readonly tokens = new Map<string, string>();

  get tokenUrl(): string {
    return `${this.url}/token`;
  }

  /** Every access token given out stops working (as when a key is deleted while a read goes on). */
  revokeTokens(): void {
    this.tokens.clear();
  }

  protected answer(request: Received): Promise<Answer> | Answer {
    if (request.method === "POST" && request.path === "/token") return this.token(request);
    const report = /^\/v1beta\/properties\/([^/:]+):runReport$/.exec(request.path);
    if (request.method === "POST" && report) return this.runReport(report[1]!, request);
    return { status: 404, body: { error: { code: 404, message: "Requested entity was not found.", status: "NOT_FOUND" } } };
  }

  private async token(request: Received): Promise<Answer> {
    const form = new URLSearchParams(request.body);
    if (!request.headers["content-type"]?.startsWith("application/x-www-form-urlencoded")) return { status: 400, body: { error: "invalid_request", error_description: "Bad Request" } };
    if (form.get("grant_type") !== "urn:ietf:params:oauth:grant-type:jwt-bearer") return { status: 400, body: { error: "unsupported_grant_type", error_description: "Invalid grant_type: " } };
    const assertion = form.get("assertion") ?? "";
    const invalidSignature = { status: 400, body: { error: "invalid_grant", error_description: "Invalid JWT Signature." } };
    let issuer: string | undefined;
    try {
      issuer = decodeJwt(assertion).iss;
    } catch {
      return { status: 400, body: { error: "invalid_grant", error_description: "Invalid JWT: Failed audience check." } };
    }
    const account = issuer ? this.accounts.get(issuer) : undefined;
    if (!account) return { status: 400, body: { error: "invalid_grant", error_description: "Invalid grant: account not found" } };
    if (account.revoked) return invalidSignature;
    try {
      const { payload, protectedHeader } = await jwtVerify(assertion, account.publicKey, { algorithms: ["RS256"], audience: this.tokenUrl, issuer });
      if (payload.scope !== "https://www.googleapis.com/auth/analytics.readonly") return { status: 400, body: { error: "invalid_scope", error_description: "Invalid OAuth scope." } };
      if (typeof payload.iat !== "number" || typeof payload.exp !== "number" || payload.exp - payload.iat > 3600) {
        return { status: 400, body: { error: "invalid_grant", error_description: "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe." } };
      }
      this.assertions.push({ header: { ...protectedHeader }, claims: payload });
    } catch {
      return invalidSignature;
    }
    const token = `ya29.${randomBytes(24).toString("base64url")}`;
    this.tokens.set(token, issuer!);
    return { status: 200, body: { access_token: token, expires_in: 3599, token_type: "Bearer" } };
  }

  private runReport(propertyId: string, request: Received): Answer {
    const auth = request.headers.authorization ?? "";
    const account = auth.startsWith("Bearer ") ? this.tokens.get(auth.slice("Bearer ".length)) : undefined;
    if (!account) {
      return {
        status: 401,
        body: {
          error: {
            code: 401,
            message:
              "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.",
            status: "UNAUTHENTICATED",
          },
        },
      };
    }
    const property = this.properties.get(propertyId);
    if (!property?.viewers.includes(account)) return { status: 403, body: { error: PERMISSION_DENIED } };
    const body = json(request.body);
    const asked =
      JSON.stringify(body.dateRanges) === '[{"startDate":"30daysAgo","endDate":"today"}]' &&
      JSON.stringify(body.dimensions) === '[{"name":"pagePath"}]' &&
      JSON.stringify(body.metrics) === '[{"name":"screenPageViews"}]';
    const limit = Number(body.limit ?? 10_000);
    const offset = Number(body.offset ?? 0);
    if (!asked || !Number.isInteger(limit) || limit < 1 || limit > 250_000 || !Number.isInteger(offset) || offset < 0) {
      return { status: 400, body: { error: { code: 400, message: "Invalid request: not the report the tests expect.", status: "INVALID_ARGUMENT" } } };
    }
    const all = ordered(property.pages);
    const rows = all.slice(offset, offset + limit).map(([page, views]) => ({ dimensionValues: [{ value: page }], metricValues: [{ value: String(views) }] }));
    // proto3's JSON leaves out empty lists and zeros: an empty report has neither rows nor rowCount.
    return {
      status: 200,
      body: {
        dimensionHeaders: [{ name: "pagePath" }],
        metricHeaders: [{ name: "screenPageViews", type: "TYPE_INTEGER" }],
        ...(rows.length ? { rows } : {}),
        ...(all.length ? { rowCount: all.length } : {}),
        metadata: { currencyCode: "USD", timeZone: "Etc/UTC" },
        kind: "analyticsData#runReport",
      },
    };
  }
}
