import { type NextRequest, NextResponse } from "next/server";
import { hasSessionCookie } from "@/lib/auth/session-cookie";

/**
 * A visitor without a session who opens a dashboard page (a report e-mail's link to a run, say) is
 * sent to sign in and brought back to that page afterwards. Only the cookie's presence is looked at
 * here; the pages and every call check the session itself. API answers get their X-Request-Id from
 * the handler (lib/api/handler.ts): a proxy on their paths would cost every API request its run.
 */
export function proxy(request: NextRequest) {
  if (hasSessionCookie(request.cookies)) return NextResponse.next();
  const signIn = new URL("/signin", request.url);
  signIn.searchParams.set("callbackUrl", request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(signIn);
}

export const config = {
  matcher: ["/sites/:path*", "/boosts/:path*", "/runs/:path*", "/keys/:path*", "/webhooks/:path*", "/outbox/:path*", "/account/:path*"],
};
