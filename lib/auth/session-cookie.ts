/** next-auth's session cookie names (the __Secure- one on https). */
const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"] as const;

/** Whether a request carries a session cookie at all: nothing else is worth a database query. */
export function hasSessionCookie(cookies: { has(name: string): boolean }): boolean {
  return SESSION_COOKIES.some((name) => cookies.has(name));
}
