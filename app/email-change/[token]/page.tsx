import type { Metadata } from "next";
import { ConfirmEmailChange } from "@/components/account/confirm-email-change";

export const metadata: Metadata = { title: "Confirm your new address" };

export default async function EmailChangePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  return (
    <div className="mx-auto max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="mb-4 text-xl font-bold">Confirm your new address</h1>
      <p className="mb-4 text-sm text-slate-700">Your Preheat user will sign in with this address from now on; the old one is told.</p>
      <ConfirmEmailChange token={token} />
    </div>
  );
}
