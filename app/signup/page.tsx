import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { signedInUser } from "@/lib/accounts/next-auth";
import { setting } from "@/lib/config";

export const metadata: Metadata = { title: "Sign up" };
// Whether e-mail goes out is read at request time, not baked in at build time.
export const dynamic = "force-dynamic";

export default async function SignUpPage() {
  if (await signedInUser()) redirect("/sites");
  return (
    <div className="mx-auto max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="mb-1 text-xl font-bold">Create your Preheat account</h1>
      <p className="mb-6 text-sm text-slate-600">Register your sites, prove you own them, and keep their caches warm.</p>
      <SignUpForm emailTransport={Boolean(setting("RESEND_API_KEY"))} />
    </div>
  );
}
