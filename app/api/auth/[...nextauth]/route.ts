import NextAuth from "next-auth";
import { authOptions } from "@/lib/accounts/next-auth";

type Context = { params: Promise<{ nextauth: string[] }> };

// next-auth's own endpoints (sign-in, callback, session, csrf, sign-out) with options that need the database.
async function handler(request: Request, context: Context) {
  return NextAuth(request as never, context as never, await authOptions());
}

export { handler as GET, handler as POST };
