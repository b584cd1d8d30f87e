import type { Metadata } from "next";
import { ConfirmSignUp } from "@/components/auth/confirm-sign-up";
import { ErrorNote } from "@/components/ui/card";
import { MIN_PASSWORD_LENGTH } from "@/lib/accounts/passwords";
import { pendingSignUp, SIGN_UP_LINK_UNUSABLE } from "@/lib/accounts/sign-up";
import { getDb } from "@/lib/db";

export const metadata: Metadata = { title: "Confirm your address" };

export default async function ConfirmSignUpPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  // Only looked at, not spent: the link is spent by the button, so a mail scanner opening it spends nothing.
  const pending = typeof token === "string" && token ? await pendingSignUp(await getDb(), token) : undefined;
  return (
    <div className="mx-auto max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="mb-4 text-xl font-bold">Confirm your address</h1>
      {pending ? <ConfirmSignUp token={token as string} email={pending.email} minPasswordLength={MIN_PASSWORD_LENGTH} /> : <ErrorNote error={SIGN_UP_LINK_UNUSABLE} />}
    </div>
  );
}
