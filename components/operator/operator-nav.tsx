"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const links = [
  { href: "/operator", label: "Organizations" },
  { href: "/operator/plans", label: "Plans" },
  { href: "/operator/workers", label: "Workers & regions" },
  { href: "/operator/queues", label: "Queues" },
  { href: "/operator/keys", label: "Keys" },
  { href: "/operator/emails", label: "E-mails" },
];

/** The console's own navigation: it is not the customer dashboard, and says so. */
export function OperatorNav() {
  const pathname = usePathname();
  const current = (href: string) => (href === "/operator" ? pathname === href || pathname.startsWith("/operator/organizations") : pathname.startsWith(href));
  return (
    <div className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3">
      <p className="text-xs font-semibold uppercase tracking-wide text-amber-900">Operator console · every organization of this service</p>
      <nav aria-label="Operator" className="mt-2 flex flex-wrap gap-x-5 gap-y-2 text-sm">
        {links.map((link) => (
          <Link
            key={link.href}
            href={link.href}
            aria-current={current(link.href) ? "page" : undefined}
            className={current(link.href) ? "font-semibold text-slate-900" : "text-slate-600 hover:text-slate-900"}
          >
            {link.label}
          </Link>
        ))}
      </nav>
    </div>
  );
}
