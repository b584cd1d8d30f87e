import type { Metadata } from "next";
import Link from "next/link";
import { NoEmailTransportNote } from "@/components/auth/no-email-transport-note";
import { setting } from "@/lib/config";

export const metadata: Metadata = { title: "Check your e-mail" };
// Whether e-mail goes out is read at request time, not baked in at build time.
export const dynamic = "force-dynamic";

export default function CheckEmailPage() {
  const transport = Boolean(setting("RESEND_API_KEY"));
  return (
    <div className="mx-auto max-w-md rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="mb-2 text-xl font-bold">{transport ? "Check your e-mail" : "Your sign-in link is in the server's outbox"}</h1>
      {transport ? (
        <p className="text-sm text-slate-600">
          A sign-in link is on its way. It works once and expires in 24 hours. Nothing there? At most 5 e-mails an hour go to one address (and 20 an hour are sent for one visitor): wait a little
          before asking again, or sign in with your password.
        </p>
      ) : (
        <>
          <NoEmailTransportNote />
          <p className="mt-3 text-sm text-slate-600">It works once and expires in 24 hours. Or sign in with your password.</p>
        </>
      )}
      <p className="mt-4 text-sm">
        <Link href="/signin" className="font-medium text-brand-700 underline">
          Back to sign in
        </Link>
      </p>
    </div>
  );
}
