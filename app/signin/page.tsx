import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { Suspense } from "react";
import { SignInForm } from "@/components/auth/sign-in-form";
import { currentSession } from "@/lib/accounts/next-auth";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage() {
  const session = await currentSession();
  if (session && session.kind !== "removed") redirect("/sites");
  return (
    <div className="mx-auto max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="mb-6 text-xl font-bold">Sign in to Preheat</h1>
      {session?.kind === "removed" ? (
        // Read from this browser's own ended session, never from the address: nobody can make the page say it of someone else.
        <p role="status" className="mb-6 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {`You were signed out because an owner removed you from ${session.organization}. Sign in again to work in the organizations you still belong to, or to create one.`}
        </p>
      ) : null}
      <Suspense>
        <SignInForm />
      </Suspense>
    </div>
  );
}
