import type { z } from "zod";
import { type ApiKeyPrincipal, authenticateApiKey } from "@/lib/auth/api-keys";
import type { Scope } from "@/lib/auth/scopes";
import type { AccountContext } from "@/lib/context";
import { getDb } from "@/lib/db";
import { toErrorResponse } from "./errors";
import { parseBody, parseParams, parseQuery } from "./input";
import { errorResponse } from "./responses";

export const INVALID_KEY_MESSAGE = "Invalid or expired API key.";

type RouteContext = { params: Promise<Record<string, string | string[]>> };

type Spec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> = {
  /** The scope the key must carry; omitted for operations any valid key may call. */
  scope?: Scope;
  params?: P;
  query?: Q;
  body?: B;
};

type Input<T> = T extends z.ZodType ? z.output<T> : undefined;

export type ApiHandlerArgs<P, Q, B> = {
  ctx: AccountContext;
  principal: ApiKeyPrincipal;
  params: Input<P>;
  query: Input<Q>;
  body: Input<B>;
  request: Request;
};

async function authenticate(request: Request, ctxDb: AccountContext["db"]) {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? authenticateApiKey(ctxDb, match[1]!) : undefined;
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
      const principal = await authenticate(request, db);
      if (!principal) return errorResponse(401, INVALID_KEY_MESSAGE);
      if (spec.scope && !principal.scopes.includes(spec.scope)) {
        return errorResponse(403, `This API key lacks the ${spec.scope} scope required by this operation.`, { required_scope: spec.scope });
      }
      const rawParams = route?.params ? await route.params : {};
      const params = spec.params ? parseParams(rawParams, spec.params) : undefined;
      const query = spec.query ? parseQuery(request, spec.query) : undefined;
      const body = spec.body ? await parseBody(request, spec.body) : undefined;
      return await operation({
        ctx: { db, accountId: principal.accountId },
        principal,
        params: params as Input<P>,
        query: query as Input<Q>,
        body: body as Input<B>,
        request,
      });
    } catch (error) {
      return toErrorResponse(error);
    }
  };
}
