"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

/** The header's links, the current section marked (for the eye, and `aria-current` for screen readers). */
export function NavLinks({ links }: { links: readonly { href: string; label: string }[] }) {
  const pathname = usePathname();
  // A run or a boost belongs to the Sites section, where the owner reaches it from.
  const section = pathname.startsWith("/runs") || pathname.startsWith("/boosts") ? "/sites" : pathname;
  return links.map((link) => {
    const current = section === link.href || section.startsWith(`${link.href}/`);
    return (
      <Link
        key={link.href}
        href={link.href}
        aria-current={current ? "page" : undefined}
        className={current ? "font-medium text-slate-900 underline decoration-brand-500 decoration-2 underline-offset-8" : "text-slate-600 hover:text-slate-900"}
      >
        {link.label}
      </Link>
    );
  });
}
