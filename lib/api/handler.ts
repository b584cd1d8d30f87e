import type { z } from "zod";
import { type ApiKeyPrincipal, authenticateApiKey } from "@/lib/auth/api-keys";
import { SCOPES, type Scope } from "@/lib/auth/scopes";
import type { AccountContext } from "@/lib/context";
import { getDb } from "@/lib/db";
import { toErrorResponse } from "./errors";
import { parseBody, parseParams, parseQuery } from "./input";
import { errorResponse } from "./responses";
import { REQUEST_ID_HEADER } from "./request-id";

export const INVALID_KEY_MESSAGE = "Invalid or expired API key.";
export const SESSION_EXPIRED_MESSAGE = "Your session has ended: sign in again.";
/**
 * The dashboard calls the same operations with its session cookie and this header. A cookie alone
 * is never enough: a custom header cannot be sent cross-site without a CORS preflight, which this
 * API does not grant, so another site cannot make a signed-in browser act here (CSRF).
 */
export const DASHBOARD_HEADER = "x-preheat-dashboard";

export type RouteContext = { params: Promise<Record<string, string | string[]>> };

type Spec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = {
  /** The scope the key must carry; omitted for operations any valid key may call. */
  scope?: Scope;
  params?: P;
  query?: Q;
  body?: B;
  /** false for operations about the API key itself (GET /v1/me): the dashboard session has none. */
  session?: boolean;
};

export type Input<T> = T extends z.ZodType ? z.output<T> : undefined;

/** Path, query and body, each parsed by its schema when the operation declares one. */
export async function parseRequest<P, Q, B>(
  spec: { params?: z.ZodType; query?: z.ZodType; body?: z.ZodType },
  request: Request,
  route: RouteContext | undefined,
): Promise<{ params: Input<P>; query: Input<Q>; body: Input<B> }> {
  const rawParams = route?.params ? await route.params : {};
  const params = spec.params ? parseParams(rawParams, spec.params) : undefined;
  const query = spec.query ? parseQuery(request, spec.query) : undefined;
  const body = spec.body ? await parseBody(request, spec.body) : undefined;
  return { params: params as Input<P>, query: query as Input<Q>, body: body as Input<B> };
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
    const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "");
    return match ? authenticateApiKey(db, match[1]!) : undefined;
  }
  // Loaded here only: the API-key path must not pull next-auth into every cold start.
  const { currentUser } = await import("@/lib/auth/next-auth");
  const user = await currentUser();
  // A signed-in owner may do everything with the account: the session carries every scope.
  return user ? { keyId: 0, accountId: user.accountId, scopes: [...SCOPES], name: "dashboard session", prefix: "", expiresAt: null } : undefined;
}

/**
 * Authenticates the bearer key, checks its scope, parses path, query and body, then calls the
 * operation; every failure becomes a JSON error in one place.
 */
export function withApiKey<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  spec: Spec<NonNullable<P>, NonNullable<Q>, NonNullable<B>> & { params?: P; query?: Q; body?: B },
  operation: (args: ApiHandlerArgs<P, Q, B>) => Promise<Response>,
) {
  return async (request: Request, route: RouteContext): Promise<Response> => {
    try {
      const db = await getDb();
      const viaSession = viaDashboardSession(request, spec.session !== false);
      const principal = await authenticate(request, db, viaSession);
      if (!principal) return errorResponse(401, viaSession ? "session_expired" : "invalid_api_key", viaSession ? SESSION_EXPIRED_MESSAGE : INVALID_KEY_MESSAGE);
      if (spec.scope && !principal.scopes.includes(spec.scope)) {
        return errorResponse(403, "insufficient_scope", `This API key lacks the ${spec.scope} scope required by this operation.`, { required_scope: spec.scope });
      }
      const input = await parseRequest<P, Q, B>(spec, request, route);
      return await operation({ ctx: { db, accountId: principal.accountId }, principal, ...input, request });
    } catch (error) {
      return toErrorResponse(error, request.headers.get(REQUEST_ID_HEADER) ?? undefined);
    }
  };
}
