import Link from "next/link";
import type { ReactNode } from "react";

/** A page above this one: where it is, and what it is called (text, or an element that reads the name). */
export type Crumb = { href: string; label: ReactNode };

/**
 * Where a page sits: the pages above it, each a link, then the page's own name when it adds one.
 * One look and one landmark ("Breadcrumb") on every dashboard page that has a parent.
 */
export function Breadcrumb({ trail, current, className = "" }: { trail: Crumb[]; current?: string; className?: string }) {
  return (
    <nav aria-label="Breadcrumb" className={`text-sm text-slate-600 ${className}`.trim()}>
      {trail.map((crumb, index) => (
        <span key={crumb.href}>
          {index ? " / " : null}
          <Link href={crumb.href} className="hover:underline">
            {crumb.label}
          </Link>
        </span>
      ))}
      {current ? ` / ${current}` : null}
    </nav>
  );
}
