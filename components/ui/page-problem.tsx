import Link from "next/link";
import type { ReactNode } from "react";
import { buttonClass } from "./button";

/** The one shape of a page that cannot be shown (not found, an error): what happened, in a sentence, and ways back. */
export function PageProblem({ code, title, children, actions }: { code: string; title: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <p className="text-sm font-semibold text-brand-700">{code}</p>
      <h1 className="mt-2 text-2xl font-semibold text-slate-900">{title}</h1>
      <div className="mt-3 text-slate-600">{children}</div>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        {actions}
        <Link href="/sites" className={buttonClass("secondary")}>
          Your sites
        </Link>
        <Link href="/" className={buttonClass("secondary")}>
          Home
        </Link>
      </div>
    </div>
  );
}
