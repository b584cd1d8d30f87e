import { eq } from "drizzle-orm";
import type { NextAuthOptions } from "next-auth";
import { cookies, headers } from "next/headers";
import { cache } from "react";
import { getServerSession } from "next-auth";
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
import { countFailure, forgive } from "@/lib/auth/rate-limit";
import { signInBudgets } from "@/lib/auth/attempts";
import { mayEmailVisitor } from "@/lib/auth/email-caps";
import { preheatAdapter } from "./next-auth-adapter";
import { checkSecondFactor } from "./two-factor";
import { countWrongProof, secondsUntilProofAllowed } from "./proof-attempts";

/** The sign-in errors of two-factor sign-in, as next-auth passes them to the sign-in form. */
const TWO_FACTOR_REQUIRED = "TwoFactorRequired";
const TWO_FACTOR_INVALID = "TwoFactorInvalid";
import { hasSessionCookie } from "@/lib/auth/session-cookie";
import { openSession, SESSION_DAYS, type SessionState, type SessionUser, type SignedInUser, sessionState } from "./sessions";
import { sessionSecret, SIGN_IN_LINK_HOURS, signInLinkKey } from "@/lib/accounts/sign-in-link";

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
    // Each link is its own e-mail: the token in the URL is unique, and only its hash is stored.
    dedupeKey: `sign-in-link:${signInLinkKey(url)}`,
    to: email,
    template: "sign-in-link",
    props: { url, host: new URL(url).host, expiresInHours: SIGN_IN_LINK_HOURS },
  });
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
        credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" }, code: { label: "Code", type: "text" } },
        async authorize(credentials, request) {
          if (!credentials?.email || !credentials.password) return null;
          const email = credentials.email.trim().toLowerCase();
          const client = clientAddress(request?.headers ?? {});
          const { byEmail, byClient } = signInBudgets;
          const wait = await secondsUntilProofAllowed(db, email, client);
          // next-auth passes this message on as the sign-in error.
          if (wait) throw new Error(`Too many failed sign-ins: try again in ${Math.ceil(wait / 60)} minutes, or use a sign-in link.`);
          const user = await verifyPassword(db, email, credentials.password);
          if (!user) {
            await countFailure(db, byEmail, email);
            await countFailure(db, byClient, client);
            return null;
          }
          // The password was right; a user with two-factor sign-in also needs a code (the form then asks for it).
          if (user.totpEnabledAt) {
            if (!credentials.code) throw new Error(TWO_FACTOR_REQUIRED);
            if (!(await checkSecondFactor(db, user.id, credentials.code))) {
              // Counted as every other route that takes a code counts it; the one that locks tells the user.
              await countWrongProof(db, { userId: user.id, email, accountId: user.accountId, client }, "signing in");
              throw new Error(TWO_FACTOR_INVALID);
            }
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
      // A sign-in link proves the address, not the second factor: a user with two-factor sign-in signs in with the password and a code.
      async signIn({ user, account, email }) {
        if (account?.provider !== "email" || email?.verificationRequest) return true;
        // A first link to an unknown address comes with the address as its id (the user is created after this): no second factor yet.
        const userId = Number(user.id);
        if (!Number.isSafeInteger(userId)) return true;
        const [row] = await db.select({ totpEnabledAt: users.totpEnabledAt }).from(users).where(eq(users.id, userId));
        return row?.totpEnabledAt ? `/signin?${new URLSearchParams({ error: TWO_FACTOR_REQUIRED, email: user.email ?? "" })}` : true;
      },
      // At sign-in (`user` is given only then) the session becomes a row, whose id the cookie carries:
      // currentUser looks it up on every request, so that deleting the row ends the session at once.
      async jwt({ token, user }) {
        if (user) {
          const request = await headers();
          token.sid = await openSession(db, Number(user.id), { userAgent: request.get("user-agent"), clientAddress: clientAddress(request) });
        }
        return token;
      },
      async session({ session, token }) {
        return { ...session, user: { ...session.user, id: token.sub }, sid: token.sid };
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

/**
 * What this request's session cookie stands for (cookies read through next/headers), or undefined
 * when signed out. Read once per page render (React's `cache`): the layout, the header, the page's
 * own record and its role check all ask, and the answer cannot change within the render.
 */
export const currentSession = cache(async (): Promise<SessionState | undefined> => {
  // Cookies first: a visitor without a session costs no query, and a page being prerendered at build
  // time stops here (cookies() marks it dynamic) before it could open the database.
  if (!hasSessionCookie(await cookies())) return undefined;
  const session = (await getServerSession(await authOptions())) as { sid?: unknown } | null;
  // Cookies signed before sessions were rows carry no id: they are signed out.
  if (typeof session?.sid !== "string") return undefined;
  return sessionState(await getDb(), session.sid);
});

/** The signed-in user of this request at work in an organization, or undefined. */
export async function currentUser(): Promise<SessionUser | undefined> {
  const state = await currentSession();
  return state?.kind === "member" ? state.user : undefined;
}

/** The signed-in user of this request, in an organization or in none, or undefined. */
export async function signedInUser(): Promise<SignedInUser | undefined> {
  const state = await currentSession();
  return state?.kind === "member" || state?.kind === "no_organization" ? state.user : undefined;
}
