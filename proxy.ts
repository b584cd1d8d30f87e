import { type NextRequest, NextResponse } from "next/server";
import { answer } from "@/lib/api/handler";
import { errorResponse } from "@/lib/api/responses";
import { hasSessionCookie } from "@/lib/auth/session-cookie";
import { UNMATCHED_ROUTE } from "@/lib/observability/requests";

/** The API's paths: their answers are JSON, a malformed one's too. */
const API_PATH = /^\/(v1|api)(\/|$)/;

/** Whether every segment of `pathname` decodes: `%` followed by two hex digits, making UTF-8. */
function decodes(pathname: string): boolean {
  try {
    for (const segment of pathname.split("/")) decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * An API path with malformed percent-encoding (`/v1/sites/%ZZ`) gets the API's JSON 400: Next.js
 * decodes a route's path after the proxy and before any handler, and answers what it cannot decode
 * with a plain-text 500. Only paths holding a `%` come here (the matcher), so other API requests do
 * not pay for the proxy (docs/benchmarks.md).
 */
function malformedPath(request: NextRequest): Promise<Response> | undefined {
  if (decodes(new URL(request.url).pathname)) return undefined;
  return answer(request, { path: UNMATCHED_ROUTE }, async () => errorResponse(400, "invalid_path", "The path is not valid: a `%` must be followed by two hexadecimal digits, encoding UTF-8."));
}

/**
 * A visitor without a session who opens a dashboard page (a report e-mail's link to a run, say) is
 * sent to sign in and brought back to that page afterwards. Only the cookie's presence is looked at
 * here; the pages and every call check the session itself. API answers get their X-Request-Id from
 * the handler (lib/api/handler.ts): a proxy on their paths would cost every API request its run.
 */
export function proxy(request: NextRequest) {
  if (API_PATH.test(request.nextUrl.pathname)) return malformedPath(request) ?? NextResponse.next();
  if (hasSessionCookie(request.cookies)) return NextResponse.next();
  const signIn = new URL("/signin", request.url);
  signIn.searchParams.set("callbackUrl", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(signIn);
}

export const config = {
  matcher: [
    "/sites/:path*",
    "/boosts/:path*",
    "/runs/:path*",
    "/keys/:path*",
    "/webhooks/:path*",
    "/outbox/:path*",
    "/account/:path*",
    // API paths holding percent-encoding, for malformedPath.
    "/v1/:path(.*%.*)",
    "/api/:path(.*%.*)",
  ],
};
