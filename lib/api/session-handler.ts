import type { z } from "zod";
import type { AccountContext } from "@/lib/context";
import { type Database, getDb } from "@/lib/db";
import type { SessionState, SessionUser, SignedInUser } from "@/lib/accounts/sessions";
import type { Prover } from "@/lib/accounts/proof-attempts";
import { clientAddress } from "@/lib/auth/client-address";
import type { Role } from "@/lib/core/roles";
import { routeOf } from "@/lib/observability/requests";
import { actorOf, recordAudited } from "./audit";
import { RequestError } from "./errors";
import type { AuditSpec } from "./operation";
import { METHODS, type Method, methodNotAllowed } from "./methods";
import { answer, budgetSubject, DASHBOARD_HEADER, type Input, parseRequest, roleRefusal, type RouteContext, SESSION_EXPIRED_MESSAGE, suspendedRefusal, twoFactorRefusal } from "./handler";
import { errorResponse } from "./responses";

/**
 * For the routes a signed-out visitor may call (sign-up): a cross-site <form> can post text/plain
 * or form-encoded bodies without a CORS preflight, but neither JSON nor the dashboard header.
 */
export function requireJsonOrDashboard(request: Request): void {
  if (request.headers.get(DASHBOARD_HEADER) === "1") return;
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") throw new RequestError(415, "Send the body as JSON (Content-Type: application/json).");
}

/** The session of a dashboard request (its header and a live session), "not_dashboard" without the header, undefined without a session. */
async function dashboardSession(request: Request): Promise<SessionState | "not_dashboard" | undefined> {
  if (request.headers.get(DASHBOARD_HEADER) !== "1") return "not_dashboard";
  // Loaded here only: the API-key path must not pull next-auth into every cold start.
  const { currentSession } = await import("@/lib/accounts/next-auth");
  return currentSession();
}

/** The signed-in member of a dashboard request, "not_dashboard" without the header, undefined without a session or an organization. */
async function dashboardUser(request: Request): Promise<SessionUser | "not_dashboard" | undefined> {
  const session = await dashboardSession(request);
  if (session === "not_dashboard") return session;
  return session?.kind === "member" ? session.user : undefined;
}

export type SessionHandlerArgs<P, Q, B> = { ctx: AccountContext; user: SessionUser; params: Input<P>; query: Input<Q>; body: Input<B>; request: Request };

/** The signed-in user as the giver of a code or password, counted against the sign-in budgets with the client's address. */
export function proverOf(user: SessionUser, request: Request): Prover {
  return { userId: user.userId, email: user.email, accountId: user.accountId, client: clientAddress(request.headers) };
}

/**
 * The dashboard's own operations (API keys, members, the outbox, one's own sessions): a signed-in
 * session and the dashboard header, never an API key, so that a key cannot mint keys with more
 * scopes than it has. `role`: what the member needs in the organization (viewer by default);
 * `ownAccount`: one's own account (the password, sessions, two-factor itself, switching
 * organizations), open to a member whose organization requires two-factor sign-in before it is on,
 * and while the organization is suspended; every other route answers those 403.
 * `audit`: set on every route that changes state, as on a /v1 operation (`AuditSpec` in
 * lib/api/operation.ts): e.g. `{ action: "member.invited", target: "invitation" }` records, after a
 * 2xx answer, the signed-in member as the actor and the answer's `id` (201) or the route's last
 * path parameter as the target.
 */
export function withSession<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  spec: { params?: P; query?: Q; body?: B; role?: Role; ownAccount?: boolean; audit?: AuditSpec },
  operation: (args: SessionHandlerArgs<P, Q, B>) => Promise<Response>,
) {
  return async (request: Request, route: RouteContext): Promise<Response> =>
    answer(request, { path: routeOf(request, await route.params) }, async (meter) => {
      const user = await dashboardUser(request);
      if (user === "not_dashboard") return errorResponse(403, "dashboard_only", `This operation belongs to the dashboard: send the ${DASHBOARD_HEADER} header from a signed-in session.`);
      if (!user) return errorResponse(401, "session_expired", SESSION_EXPIRED_MESSAGE);
      meter.caller = { accountId: user.accountId };
      const db = await getDb();
      // The signed-in account's one budget, shared with its dashboard calls of the /v1 operations.
      const refusal = await meter.spend(db, `account:${user.accountId}`);
      if (refusal) return refusal;
      const refusedRole = (spec.ownAccount ? undefined : (user.suspension && suspendedRefusal(user.suspension)) || twoFactorRefusal(user)) ?? roleRefusal(user.role, spec.role ?? "viewer");
      if (refusedRole) return refusedRole;
      const { raw, ...input } = await parseRequest<P, Q, B>(spec, request, route);
      const response = await operation({ ctx: { db, accountId: user.accountId, trigger: { kind: "dashboard", label: user.email } }, user, ...input, request });
      await recordAudited(spec.audit, response, {
        db,
        accountId: user.accountId,
        actor: actorOf({ prefix: "", user }),
        request,
        params: raw.params,
        bodyText: raw.body,
        body: input.body,
        requestId: meter.requestId,
      });
      return response;
    });
}

/** `accountId`: the organization the session works in, null in none. */
export type SignedInHandlerArgs<B> = { db: Database; user: SignedInUser; accountId: number | null; body: Input<B>; request: Request };

/**
 * The few dashboard routes open to a signed-in user whether or not they belong to an organization
 * (listing theirs, creating one): a live session and the dashboard header, the user's own budget.
 */
export function withSignedIn<B extends z.ZodType | undefined = undefined>(spec: { body?: B }, operation: (args: SignedInHandlerArgs<B>) => Promise<Response>) {
  return async (request: Request, route: RouteContext): Promise<Response> =>
    answer(request, { path: routeOf(request, await route.params) }, async (meter) => {
      const session = await dashboardSession(request);
      if (session === "not_dashboard") return errorResponse(403, "dashboard_only", `This operation belongs to the dashboard: send the ${DASHBOARD_HEADER} header from a signed-in session.`);
      if (session?.kind !== "member" && session?.kind !== "no_organization") return errorResponse(401, "session_expired", SESSION_EXPIRED_MESSAGE);
      const db = await getDb();
      const refusal = await meter.spend(db, `user:${session.user.userId}`);
      if (refusal) return refusal;
      const { body } = await parseRequest<undefined, undefined, B>(spec, request, route);
      return operation({ db, user: session.user, accountId: session.kind === "member" ? session.user.accountId : null, body, request });
    });
}

export type OperatorHandlerArgs<P, Q, B> = { db: Database; operator: SessionUser; params: Input<P>; query: Input<Q>; body: Input<B>; request: Request };

/**
 * The console's existence must not leak: whoever is not a signed-in operator (signed out, a
 * customer, an API key, a request without the dashboard header) gets the answer of a path that does
 * not exist, drawn from the client address's budget like one.
 */
const NOT_AN_OPERATOR = () => errorResponse(404, "not_found", "Not found.");

/**
 * The operator console's routes (/api/operator/…): a signed-in session of a user granted the console
 * (`users grant-operator`) and the dashboard header; anything else answers 404 `not_found`. They act
 * across organizations, so neither the operator's own organization's suspension nor its two-factor
 * requirement refuses them. The domain verbs record what they change in the organization's audit
 * log, naming the operator by e-mail address (`operator.email`).
 */
export function withOperator<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  spec: { params?: P; query?: Q; body?: B },
  operation: (args: OperatorHandlerArgs<P, Q, B>) => Promise<Response>,
) {
  return async (request: Request, route: RouteContext): Promise<Response> =>
    answer(request, { path: routeOf(request, await route.params) }, async (meter) => {
      const db = await getDb();
      const user = request.headers.has("authorization") ? undefined : await dashboardUser(request);
      if (typeof user !== "object" || !user.operator) return (await meter.spend(db, budgetSubject(request, undefined))) ?? NOT_AN_OPERATOR();
      meter.caller = { accountId: user.accountId };
      const refusal = await meter.spend(db, `operator:${user.userId}`);
      if (refusal) return refusal;
      const { raw: _raw, ...input } = await parseRequest<P, Q, B>(spec, request, route);
      return operation({ db, operator: user, ...input, request });
    });
}

/** An operator route's answer to the methods it does not serve: 405 to an operator, 404 to anyone else. */
export function otherOperatorMethods(...allowed: Method[]): Record<Method, (request: Request, route: RouteContext) => Promise<Response>> {
  const refuse = withOperator({}, async () => methodNotAllowed(allowed));
  return Object.fromEntries(METHODS.map((method) => [method, refuse])) as Record<Method, (request: Request, route: RouteContext) => Promise<Response>>;
}
