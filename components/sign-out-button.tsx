"use client";

import { signOut } from "next-auth/react";

export function SignOutButton() {
  return (
    <button type="button" onClick={() => signOut({ callbackUrl: "/signin" })} className="whitespace-nowrap rounded-md px-2 py-1 text-slate-600 hover:bg-slate-100 hover:text-slate-900">
      Sign out
    </button>
  );
}
