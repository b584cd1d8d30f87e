import { type NextRequest, NextResponse } from "next/server";
import { hasSessionCookie } from "@/lib/auth/session-cookie";
import { REQUEST_ID_HEADER, requestIdFor } from "@/lib/api/request-id";

const DASHBOARD_PAGES = ["/sites", "/boosts", "/runs", "/keys", "/webhooks", "/outbox", "/account"];

/**
 * Every API answer carries X-Request-Id (the caller's own when it is a sensible one), and the
 * handler sees the same id on the request, for its log lines. A visitor without a session who
 * opens a dashboard page (a report e-mail's link to a run, say) is sent to sign in and brought back
 * to that page afterwards. Only the cookie's presence is looked at here; the pages and every call
 * check the session itself.
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (DASHBOARD_PAGES.some((page) => pathname === page || pathname.startsWith(`${page}/`))) {
    if (hasSessionCookie(request.cookies)) return NextResponse.next();
    const signIn = new URL("/signin", request.url);
    signIn.searchParams.set("callbackUrl", pathname + request.nextUrl.search);
    return NextResponse.redirect(signIn);
  }
  const id = requestIdFor(request.headers.get(REQUEST_ID_HEADER));
  const headers = new Headers(request.headers);
  headers.set(REQUEST_ID_HEADER, id);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set(REQUEST_ID_HEADER, id);
  return response;
}

export const config = {
  matcher: ["/sites/:path*", "/boosts/:path*", "/runs/:path*", "/keys/:path*", "/webhooks/:path*", "/outbox/:path*", "/account/:path*", "/v1/:path*", "/api/:path*", "/mcp"],
};
