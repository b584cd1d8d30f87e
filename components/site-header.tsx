import Link from "next/link";
import { currentSession } from "@/lib/accounts/next-auth";
import { NavLinks } from "./nav-links";
import { OrganizationSwitcher } from "./organization-switcher";
import { SignOutButton } from "./sign-out-button";
import { ThemeToggle } from "./theme/theme-toggle";

const dashboardLinks = [
  { href: "/sites", label: "Sites" },
  { href: "/usage", label: "Usage" },
  { href: "/keys", label: "API keys" },
  { href: "/webhooks", label: "Webhooks" },
  { href: "/team", label: "Team" },
  { href: "/outbox", label: "Outbox" },
  { href: "/audit", label: "Audit" },
  { href: "/account", label: "Account" },
  { href: "/docs", label: "Guide" },
];

export async function SiteHeader() {
  const session = await currentSession();
  const user = session?.kind === "member" || session?.kind === "no_organization" ? session.user : undefined;
  // In no organization, none of the dashboard's pages has anything to show: only the way to one.
  const member = session?.kind === "member";
  return (
    <header className="border-b border-slate-200 bg-white">
      {/*
        At 1280 px and wider, one row: the brand, the links, then the organization and the controls.
        Narrower, the brand and the controls hold the first row, the organization and the links the
        rows under it (the keyboard still meets the links first). Either way every part has its size
        before the organization menu loads, so the header keeps its height and nothing under it moves.
      */}
      <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3 text-sm">
        <Link href={member ? "/sites" : user ? "/organizations/new" : "/"} className="text-base font-semibold text-brand-700">
          Preheat
        </Link>
        {user ? (
          <>
            <div className="order-last flex w-full flex-wrap items-center gap-x-4 gap-y-2 xl:contents">
              {member ? <NavLinks links={dashboardLinks} /> : null}
              {user.operator ? (
                // Only for the users granted the console: customers never see it.
                <Link href="/operator" className="font-medium text-amber-800 hover:text-amber-950">
                  Operator console
                </Link>
              ) : null}
              <span className="order-first xl:order-none xl:ml-auto">{member ? <OrganizationSwitcher /> : null}</span>
            </div>
            <span className="ml-auto flex items-center gap-3 xl:ml-0">
              {/* The address the session signed in with is on the Account page; the row has no room for it. */}
              <span className="sr-only">Signed in as {user.email}</span>
              <ThemeToggle />
              <SignOutButton />
            </span>
          </>
        ) : (
          <>
            <Link href="/docs" className="text-slate-600 hover:text-slate-900">
              Guide
            </Link>
            <Link href="/docs/api" className="text-slate-600 hover:text-slate-900">
              API reference
            </Link>
            <span className="ml-auto flex items-center gap-3">
              <ThemeToggle />
              <Link href="/signin" className="text-slate-700 hover:text-slate-900">
                Sign in
              </Link>
              <Link href="/signup" className="rounded-md bg-brand-700 px-3 py-1.5 font-medium text-white hover:bg-brand-800">
                Sign up
              </Link>
            </span>
          </>
        )}
      </nav>
    </header>
  );
}
