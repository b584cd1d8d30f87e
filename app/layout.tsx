import type { Metadata } from "next";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/site-header";
import { themeScript } from "@/components/theme/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Preheat", template: "%s · Preheat" },
  description: "Cache warming for websites: sitemaps, feeds and CSV sources, on demand or on a schedule.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    // The head's script sets data-theme before React hydrates: that attribute is not React's to match.
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* Inline and first, so the chosen theme is there for the first paint. */}
        <script dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <SiteHeader />
        <main className="mx-auto max-w-6xl px-4 py-8">{children}</main>
      </body>
    </html>
  );
}
