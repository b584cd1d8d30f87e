import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Preheat", template: "%s · Preheat" },
  description: "Cache warming for websites: sitemaps, feeds and CSV sources, on demand or on a schedule.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <header className="border-b border-slate-200 bg-white">
          <nav className="mx-auto flex max-w-5xl items-center gap-6 px-4 py-3 text-sm">
            <Link href="/" className="text-base font-semibold text-brand-700">
              Preheat
            </Link>
            <Link href="/docs/api" className="text-slate-600 hover:text-slate-900">
              API reference
            </Link>
            <a href="/v1/openapi.json" className="text-slate-600 hover:text-slate-900">
              OpenAPI
            </a>
          </nav>
        </header>
        <main className="mx-auto max-w-5xl px-4 py-8">{children}</main>
      </body>
    </html>
  );
}
