"use client";

import { usePathname } from "next/navigation";
import { helpFor } from "@/lib/core/guide-paths";

/** The page's "?": the guide page that explains it. */
export function HelpLink() {
  const href = helpFor(usePathname());
  if (!href) return null;
  return (
    <a
      href={href}
      title="Help: the guide's page about this page"
      aria-label="Help for this page"
      className="inline-flex h-7 w-7 shrink-0 items-center justify-center rounded-full border border-slate-300 text-sm font-semibold text-slate-700 hover:bg-slate-100"
    >
      ?
    </a>
  );
}
