import { AccountSuspendedError } from "@/lib/plans/suspension";
import type { RunTrigger } from "@/lib/core/run-trigger";
import type { z } from "zod";
import { type ApiKeyPrincipal, authenticateApiKey } from "@/lib/auth/api-keys";
import { bearerCredential } from "@/lib/auth/bearer";
import { SCOPES } from "@/lib/auth/scopes";
import type { AccountContext } from "@/lib/context";
import type { SessionUser } from "@/lib/accounts/sessions";
import { type Role, roleAllows, roleRefusalMessage } from "@/lib/core/roles";
import { assertKeyReaches } from "@/lib/sites/site-limit";
import { inForeground } from "@/lib/db/statement-turns";
import { type Database, getDb } from "@/lib/db";
import { type Caller, recordRequest } from "@/lib/observability/requests";
import { clientAddress } from "@/lib/auth/client-address";
import type { AuditActor } from "@/lib/accounts/audit";
import { actorOf, recordAudited } from "./audit";
import { toErrorResponse } from "./errors";
import { checkIdempotencyKey, IDEMPOTENCY_HEADER, type KeyHolder, requestFingerprint, runOnce } from "./idempotency";
import { assertPathReachable } from "./reach";
import { parseBody, parseParams, parseQuery, readBodyText } from "./input";
import { type OperationSpec, requiredRole } from "./operation";
import { apiBudget, type BudgetState, rateLimitHeaders, takePoint } from "@/lib/auth/rate-limit";
import { REQUEST_ID_HEADER, requestIdFor } from "./request-id";
import { errorResponse } from "./responses";

export const INVALID_KEY_MESSAGE = "Invalid or expired API key.";
/** The refusal of a key without the operation's scope, through the API and the MCP server alike. */
export const missingScopeMessage = (scope: string) => `This API key lacks the ${scope} scope required by this operation.`;
export const SESSION_EXPIRED_MESSAGE = "Your session has ended: sign in again.";
/**
 * The dashboard calls the same operations with its session cookie and this header. A cookie alone
 * is never enough: a custom header cannot be sent cross-site without a CORS preflight, which this
 * API does not grant, so another site cannot make a signed-in browser act here (CSRF).
 */
export const DASHBOARD_HEADER = "x-preheat-dashboard";

export type RouteContext = { params: Promise<Record<string, string | string[]>> };

export type Input<T> = T extends z.ZodType ? z.output<T> : undefined;

type InputSpec = { params?: z.ZodType; query?: z.ZodType; body?: z.ZodType };

/** Path, query and body, each parsed by its schema when the operation declares one; `raw` is what was sent, for idempotency. */
export async function parseRequest<P, Q, B>(
  spec: InputSpec,
  request: Request,
  route: RouteContext | undefined,
): Promise<{ params: Input<P>; query: Input<Q>; body: Input<B>; raw: { params: Record<string, string | string[]>; body: string } }> {
  const rawParams = route?.params ? await route.params : {};
  const params = spec.params ? parseParams(rawParams, spec.params) : undefined;
  const query = spec.query ? parseQuery(request, spec.query) : undefined;
  const bodyText = spec.body ? await readBodyText(request) : "";
  const body = spec.body ? parseBody(bodyText, spec.body) : undefined;
  return { params: params as Input<P>, query: query as Input<Q>, body: body as Input<B>, raw: { params: rawParams, body: bodyText } };
}

export type ApiHandlerArgs<P, Q, B> = {
  ctx: AccountContext;
  principal: ApiKeyPrincipal;
  params: Input<P>;
  query: Input<Q>;
  body: Input<B>;
  request: Request;
};

/** A dashboard request: the dashboard header and no Authorization header (a key always decides). */
function viaDashboardSession(request: Request, sessionAllowed: boolean): boolean {
  return sessionAllowed && request.headers.get(DASHBOARD_HEADER) === "1" && !request.headers.has("authorization");
}

async function authenticate(request: Request, db: AccountContext["db"], viaSession: boolean): Promise<ApiKeyPrincipal | undefined> {
  if (!viaSession) {
    const key = bearerCredential(request.headers.get("authorization"));
    return key ? authenticateApiKey(db, key) : undefined;
  }
  // Loaded here only: the API-key path must not pull next-auth into every cold start.
  const { currentUser } = await import("@/lib/accounts/next-auth");
  const user = await currentUser();
  // A session carries every scope: the member's role limits it instead (withApiKey checks it).
  return user ? sessionPrincipal(user) : undefined;
}

/** The principal of a dashboard request: the member's organization and role. */
function sessionPrincipal(user: SessionUser): ApiKeyPrincipal {
  return {
    keyId: 0,
    accountId: user.accountId,
    scopes: [...SCOPES],
    name: "dashboard session",
    prefix: "",
    expiresAt: null,
    siteIds: null,
    user: { userId: user.userId, email: user.email, role: user.role, mustEnableTwoFactor: user.mustEnableTwoFactor },
    suspension: user.suspension,
  };
}

/** Whose Idempotency-Key a request's is: the API key's, or the signed-in member's on the dashboard. */
function keyHolderOf(principal: ApiKeyPrincipal): KeyHolder {
  return { accountId: principal.accountId, holder: principal.user && principal.keyId === 0 ? `user:${principal.user.userId}` : `key:${principal.keyId}` };
}

/** Who a run started by this request was started by: the member on the dashboard, or the key. */
function triggerOf(principal: ApiKeyPrincipal): RunTrigger {
  return principal.user ? { kind: "dashboard", label: principal.user.email } : { kind: "api", label: principal.prefix };
}

/** The 403 of every request of a suspended organization, with the operator's reason. */
export function suspendedRefusal(suspension: { reason: string | null }): Response {
  return toErrorResponse(new AccountSuspendedError(suspension.reason));
}

/** The 403 of a member whose organization requires two-factor sign-in, which the member has not turned on yet. */
export function twoFactorRefusal(user: { mustEnableTwoFactor: boolean }): Response | undefined {
  if (!user.mustEnableTwoFactor) return undefined;
  return errorResponse(403, "two_factor_required", "This organization requires two-factor sign-in: turn it on on the Account page first.");
}

/** The 403 of a signed-in member whose role does not reach `needed`, or undefined. */
export function roleRefusal(role: Role, needed: Role): Response | undefined {
  if (roleAllows(role, needed)) return undefined;
  return errorResponse(403, "insufficient_role", roleRefusalMessage(role, needed), {
    required_role: needed,
    role,
  });
}

/**
 * Whose budget a request draws on: its API key, the signed-in account, or, for a request that
 * proves nothing, the address it comes from (so that guessing keys is limited too).
 */
export function budgetSubject(request: Request, principal: ApiKeyPrincipal | undefined): string {
  if (!principal) return `client:${clientAddress(request.headers)}`;
  return principal.keyId ? `key:${principal.keyId}` : `account:${principal.accountId}`;
}

/**
 * Who makes the request: authenticates its bearer key (or the dashboard session), names the caller
 * on its log line and takes a point of its budget. The principal, or the answer to send instead: 429
 * once the budget is spent, then 401 without valid credentials. The API and the MCP server both admit so.
 */
export async function admit(request: Request, db: Database, meter: Meter, viaSession = false): Promise<{ principal: ApiKeyPrincipal } | { refusal: Response }> {
  const principal = await authenticate(request, db, viaSession);
  if (principal) meter.caller = { accountId: principal.accountId, keyPrefix: principal.prefix };
  const refusal = await meter.spend(db, budgetSubject(request, principal));
  if (refusal) return { refusal };
  if (!principal) return { refusal: errorResponse(401, viaSession ? "session_expired" : "invalid_api_key", viaSession ? SESSION_EXPIRED_MESSAGE : INVALID_KEY_MESSAGE) };
  if (principal.suspension) return { refusal: suspendedRefusal(principal.suspension) };
  return { principal };
}

/** The same answer with more headers (a Response's own may be immutable). */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  const merged = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
}

/** What a request records while its answer is worked out: who made it (its log line) and the budget it drew on (its RateLimit-* headers). */
export type Meter = {
  /** X-Request-Id: the caller's own when it is a sensible one, otherwise a new one; on its answer and its log line. */
  requestId: string;
  caller?: Caller;
  /** Takes a point of `subject`'s API budget; the 429 to send instead once it is spent. */
  spend: (db: Database, subject: string) => Promise<Response | undefined>;
};

/**
 * Answers a request by `work`: every failure becomes a JSON error in one place, the answer carries
 * its X-Request-Id and the RateLimit-* headers of the budget it drew on, and its log line and
 * metrics are recorded. The request id is given here rather than by the proxy (proxy.ts), which
 * Next.js would run before every API request: a tenth of an API request's cost (docs/benchmarks.md).
 */
export async function answer(request: Request, route: { path: string; operationId?: string }, work: (meter: Meter) => Promise<Response>): Promise<Response> {
  const started = performance.now();
  let budget: BudgetState | undefined;
  const meter: Meter = {
    requestId: requestIdFor(request.headers.get(REQUEST_ID_HEADER)),
    spend: async (db, subject) => {
      const { allowed, ...state } = await takePoint(db, apiBudget(), subject);
      budget = state;
      if (allowed) return undefined;
      return errorResponse(429, "rate_limited", `Too many requests: the budget is ${state.limit} a minute; try again in ${state.resetSeconds} s.`, undefined, {
        "retry-after": String(state.resetSeconds),
      });
    },
  };
  let response: Response;
  try {
    response = await inForeground(() => work(meter), request.method === "GET" || request.method === "HEAD" ? "read" : "write");
  } catch (error) {
    response = toErrorResponse(error, meter.requestId);
  }
  response = withHeaders(response, { ...(budget && rateLimitHeaders(budget)), [REQUEST_ID_HEADER]: meter.requestId });
  recordRequest(request, response, started, route, meter);
  return response;
}

/**
 * Runs a `/v1` operation as its spec declares it: authenticates the bearer key (or the dashboard
 * session), takes a point of its rate-limit budget, checks the scope, parses path, query and body,
 * and, for an operation that creates something, honours `Idempotency-Key`. Every answer, errors
 * included, carries the RateLimit-* headers; every failure becomes a JSON error in one place.
 */
export function withApiKey<P extends z.ZodType | undefined, Q extends z.ZodType | undefined, B extends z.ZodType | undefined>(
  spec: OperationSpec<P, Q, B>,
  operation: (args: ApiHandlerArgs<P, Q, B>) => Promise<Response>,
) {
  return (request: Request, route: RouteContext): Promise<Response> =>
    answer(request, spec, async (meter) => {
      const db = await getDb();
      const admitted = await admit(request, db, meter, viaDashboardSession(request, spec.session !== false));
      if ("refusal" in admitted) return admitted.refusal;
      const { principal } = admitted;
      if (spec.scope && !principal.scopes.includes(spec.scope)) {
        return errorResponse(403, "insufficient_scope", missingScopeMessage(spec.scope), { required_scope: spec.scope });
      }
      assertKeyReaches(spec, principal);
      const refusedRole = principal.user && (twoFactorRefusal(principal.user) ?? roleRefusal(principal.user.role, requiredRole(spec)));
      if (refusedRole) return refusedRole;
      const idempotencyKey = spec.idempotent ? request.headers.get(IDEMPOTENCY_HEADER) : null;
      if (idempotencyKey !== null) checkIdempotencyKey(idempotencyKey);
      const { raw, ...input } = await parseRequest<P, Q, B>(spec, request, route);
      const ctx = { db, accountId: principal.accountId, siteIds: principal.siteIds, trigger: triggerOf(principal) };
      const run = () => operation({ ctx, principal, ...input, request });
      const response =
        idempotencyKey === null
          ? await run()
          : await runOnce(db, keyHolderOf(principal), idempotencyKey, requestFingerprint(spec.operationId, raw.params, raw.body), run, {
              shownOnce: spec.shownOnce,
              beforeReplay: () => assertPathReachable(ctx, input.params),
            });
      await recordAudited(spec.audit, response, {
        db,
        accountId: principal.accountId,
        actor: actorOf(principal),
        request,
        params: raw.params,
        path: spec.path,
        bodyText: raw.body,
        body: input.body,
        requestId: meter.requestId,
      });
      return response;
    });
}

/** Who a token operation turned out to act for, once the domain verb has checked the token: its audit entry's organization, actor and target. */
export type TokenAttribution = { accountId: number; actor: AuditActor; targetId: string | number };

/**
 * Runs an operation whose credential is a secret token in its path (a deploy hook, `auth: "token"`):
 * it draws on the client address's budget, like any request without a key, and the domain verb
 * decides whether the token is valid. The operation names whom the token stands for by `attribute`:
 * the audit entry of `spec.audit` is recorded for them (never with the token, which is a secret).
 */
export function withPathToken<P extends z.ZodType | undefined>(
  spec: OperationSpec<P>,
  operation: (args: { db: Database; params: Input<P>; request: Request; attribute: (who: TokenAttribution) => void }) => Promise<Response>,
) {
  return (request: Request, route: RouteContext): Promise<Response> =>
    answer(request, spec, async (meter) => {
      const db = await getDb();
      const refusal = await meter.spend(db, budgetSubject(request, undefined));
      if (refusal) return refusal;
      const { params } = await parseRequest<P, undefined, undefined>(spec, request, route);
      let who: TokenAttribution | undefined;
      const response = await operation({ db, params, request, attribute: (attributed) => (who = attributed) });
      if (who && spec.audit) {
        const target = { target: String(who.targetId) };
        await recordAudited({ ...spec.audit, id: { param: "target" } }, response, {
          db,
          accountId: who.accountId,
          actor: who.actor,
          request,
          params: target,
          bodyText: "",
          body: undefined,
          requestId: meter.requestId,
        });
      }
      return response;
    });
}
