import type { Metadata } from "next";
import { ConfirmSignUp } from "@/components/auth/confirm-sign-up";

export const metadata: Metadata = { title: "Confirm your address" };

export default async function ConfirmSignUpPage({ searchParams }: { searchParams: Promise<{ token?: string | string[] }> }) {
  const { token } = await searchParams;
  return (
    <div className="mx-auto max-w-sm rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
      <h1 className="mb-4 text-xl font-bold">Confirm your address</h1>
      <ConfirmSignUp token={typeof token === "string" ? token : ""} />
    </div>
  );
}
