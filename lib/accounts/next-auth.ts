import { eq } from "drizzle-orm";
import type { NextAuthOptions } from "next-auth";
import { cookies, headers } from "next/headers";
import { getServerSession } from "next-auth";
import { decode, encode } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import EmailProvider from "next-auth/providers/email";
import { users } from "@/drizzle/schema";
import { verifyPassword } from "@/lib/accounts/passwords";
import { setting } from "@/lib/config";
import { type Database, getDb } from "@/lib/db";
import { sendNow } from "@/lib/email/send";
import { emailSender } from "@/lib/email/transport";
import { publicBaseUrl } from "@/lib/config/base-url";
import { clientAddress } from "@/lib/auth/client-address";
import { countFailure, forgive, secondsUntilAllowed } from "@/lib/auth/rate-limit";
import { signInBudgets } from "@/lib/auth/attempts";
import { mayEmailVisitor } from "@/lib/auth/email-caps";
import { preheatAdapter } from "./next-auth-adapter";
import { hasSessionCookie, SESSION_COOKIES } from "@/lib/auth/session-cookie";
import { sessionSecret, SIGN_IN_LINK_HOURS } from "@/lib/accounts/sign-in-link";

const SESSION_DAYS = 30;

/**
 * Queues the link (the outbox keeps it) and, with an e-mail transport, sends it while the user waits.
 * Over the e-mail caps nothing is sent, and next-auth answers as if it had been (same page, same JSON).
 */
async function sendSignInLink(db: Database, email: string, url: string): Promise<void> {
  // next-auth does not hand the request to this hook; its route handler's headers are this request's.
  if (!(await mayEmailVisitor(db, { to: email, client: clientAddress(await headers()), template: "sign-in-link" }))) return;
  const user = await db.select({ accountId: users.accountId }).from(users).where(eq(users.email, email.toLowerCase()));
  await sendNow(db, {
    accountId: user[0]?.accountId ?? null,
    // Each link is its own e-mail: the token in the URL is unique.
    dedupeKey: `sign-in-link:${new URL(url).searchParams.get("token") ?? url}`,
    to: email,
    template: "sign-in-link",
    props: { url, host: new URL(url).host, expiresInHours: SIGN_IN_LINK_HOURS },
  });
}

async function sessionVersionOf(db: Database, userId: number): Promise<number> {
  const [user] = await db.select({ sessionVersion: users.sessionVersion }).from(users).where(eq(users.id, userId));
  return user?.sessionVersion ?? 0;
}

function buildOptions(db: Database, secret: string): NextAuthOptions {
  return {
    secret,
    session: { strategy: "jwt", maxAge: SESSION_DAYS * 24 * 3600 },
    adapter: preheatAdapter(db),
    pages: { signIn: "/signin", verifyRequest: "/signin/check-email", error: "/signin" },
    providers: [
      CredentialsProvider({
        id: "password",
        name: "E-mail and password",
        credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, request) {
          if (!credentials?.email || !credentials.password) return null;
          const email = credentials.email.trim().toLowerCase();
          const client = clientAddress(request?.headers ?? {});
          const { byEmail, byClient } = signInBudgets;
          const wait = Math.max(await secondsUntilAllowed(db, byEmail, email), await secondsUntilAllowed(db, byClient, client));
          // next-auth passes this message on as the sign-in error.
          if (wait) throw new Error(`Too many failed sign-ins: try again in ${Math.ceil(wait / 60)} minutes, or use a sign-in link.`);
          const user = await verifyPassword(db, email, credentials.password);
          if (!user) {
            await countFailure(db, byEmail, email);
            await countFailure(db, byClient, client);
            return null;
          }
          await forgive(db, byEmail, email);
          return { id: String(user.id), email: user.email, name: user.name };
        },
      }),
      EmailProvider({
        from: emailSender(),
        maxAge: SIGN_IN_LINK_HOURS * 3600,
        sendVerificationRequest: ({ identifier, url }) => sendSignInLink(db, identifier, url),
      }),
    ],
    callbacks: {
      // At sign-in (`user` is given only then), the cookie takes the user's session version: a password
      // change or "sign out everywhere" bumps it, and currentUser refuses every cookie that has an older one.
      async jwt({ token, user }) {
        if (user) token.sessionVersion = await sessionVersionOf(db, Number(user.id));
        return token;
      },
      async session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.sub }, sessionVersion: token.sessionVersion };
      },
    },
  };
}

type Global = typeof globalThis & { __preheatAuthOptions?: Promise<NextAuthOptions> };

/** next-auth's options, built once per process: they need the database and its session secret. */
export function authOptions(): Promise<NextAuthOptions> {
  const g = globalThis as Global;
  // Links in e-mails and next-auth's redirects use the public address.
  // next-auth reads NEXTAUTH_URL from the environment itself: unset, it is given the public address.
  if (!setting("NEXTAUTH_URL")) process.env.NEXTAUTH_URL = publicBaseUrl();
  g.__preheatAuthOptions ??= (async () => {
    const db = await getDb();
    return buildOptions(db, await sessionSecret(db));
  })().catch((error) => {
    g.__preheatAuthOptions = undefined;
    throw error;
  });
  return g.__preheatAuthOptions;
}

export type SessionUser = { userId: number; accountId: number; email: string; name: string | null };

/** The signed-in user of this request (cookies read through next/headers), or undefined. */
export async function currentUser(): Promise<SessionUser | undefined> {
  // Cookies first: a visitor without a session costs no query, and a page being prerendered at build
  // time stops here (cookies() marks it dynamic) before it could open the database.
  if (!hasSessionCookie(await cookies())) return undefined;
  const session = (await getServerSession(await authOptions())) as { user?: { id?: string }; sessionVersion?: unknown } | null;
  const id = Number(session?.user?.id);
  if (!Number.isSafeInteger(id)) return undefined;
  const db = await getDb();
  // The user may have been removed since the session was signed.
  const [user] = await db.select().from(users).where(eq(users.id, id));
  // A cookie signed before the user's last password change (or "sign out everywhere") is signed out.
  // Cookies from before session versions existed carry none and count as the first version, 0.
  if (!user || user.sessionVersion !== (session?.sessionVersion ?? 0)) return undefined;
  return { userId: user.id, accountId: user.accountId, email: user.email, name: user.name };
}

/**
 * The Set-Cookie header that keeps this request's session alive at `sessionVersion`, after the
 * signed-in user bumped it (a password change ends every other session, not this one): the same
 * cookie, signed again with the new version and a fresh 30 days, as next-auth itself renews it.
 */
export async function renewedSessionCookie(sessionVersion: number): Promise<string | undefined> {
  const jar = await cookies();
  const name = SESSION_COOKIES.find((candidate) => jar.has(candidate));
  if (!name) return undefined;
  const { secret } = await authOptions();
  const token = await decode({ token: jar.get(name)!.value, secret: secret! });
  if (!token) return undefined;
  const maxAge = SESSION_DAYS * 24 * 3600;
  const value = await encode({ token: { ...token, sessionVersion }, secret: secret!, maxAge });
  const expires = new Date(Date.now() + maxAge * 1000).toUTCString();
  // next-auth's own attributes for this cookie; the __Secure- one is only ever set over https.
  return `${name}=${value}; Path=/; Expires=${expires}; HttpOnly; SameSite=Lax${name.startsWith("__Secure-") ? "; Secure" : ""}`;
}
