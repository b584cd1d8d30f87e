import Link from "next/link";
import { redirect } from "next/navigation";
import { signedInUser } from "@/lib/accounts/next-auth";
import { FIRST_STEPS, type FirstStep } from "@/lib/core/first-steps";

/** The dashboard's first steps (its checklist lists them in this order until they are taken), told to someone who has not signed up yet. */
const ownerSteps: Record<FirstStep, { title: string; body: string }> = {
  site_added: { title: "Add your site", body: "Its domain, on the Sites page." },
  ownership_proved: { title: "Prove you own it", body: "Publish a token file, a meta tag or a DNS record, then check it from the site's page." },
  sitemap_added: { title: "Add a sitemap", body: "Or let Preheat find the ones your robots.txt lists. A shopping feed or a CSV file of URLs works too." },
  boost_created: { title: "Create a boost", body: "What to warm, from which regions, as which devices and languages, and when. Its estimate shows the calls a run takes before you save." },
  first_run: { title: "Make a first run", body: "Run the boost now or let its schedule start it, or paste up to 5,000 URLs into Warm now. Each run's page shows what your CDN answered." },
  colleague_invited: { title: "Invite a colleague", body: "So that someone else can read the runs too." },
};

/** The same, through the API, for a script or a deploy pipeline. */
const apiSteps = [
  { title: "Get an API key", body: "Sign up, then API keys → Create key" },
  { title: "Register your site", body: 'curl -X POST -H "Authorization: Bearer $KEY" -H "content-type: application/json" -d \'{"domain":"www.example.com"}\' /v1/sites' },
  { title: "Prove you own it", body: 'Publish /{validation_token}.html, a <meta name="service-token"> tag or a _preheat-challenge TXT record, then POST /v1/sites/{id}/validate' },
  { title: "Warm", body: "Add sitemaps and define boosts, or POST up to 5,000 URLs to /v1/sites/{id}/warm" },
];

export default async function HomePage() {
  if (await signedInUser()) redirect("/sites");
  return (
    <div className="space-y-10">
      <section className="space-y-3">
        <h1 className="text-3xl font-bold tracking-tight">Keep your caches warm</h1>
        <p className="max-w-2xl text-slate-600">
          Preheat requests your pages the way your visitors do, from the regions, devices and languages you choose, so that the first visitor after a deploy or a purge gets a cache hit. Feed it
          sitemaps, shopping feeds or a CSV file; run it on demand or on a schedule; read what your CDN answered.
        </p>
        <p className="flex gap-3 pt-2">
          <Link href="/signup" className="rounded-md bg-brand-700 px-4 py-2 text-sm font-medium text-white hover:bg-brand-800">
            Create an account
          </Link>
          <Link href="/signin" className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
            Sign in
          </Link>
        </p>
      </section>
      <section>
        <h2 className="text-lg font-semibold">Getting started</h2>
        <p className="mb-4 mt-1 max-w-2xl text-sm text-slate-600">
          Create an account with your e-mail address; the dashboard then walks you through these steps, and ticks each one off as you take it.
        </p>
        <ol className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {FIRST_STEPS.map((step, index) => (
            <li key={step} className="rounded-lg border border-slate-200 bg-white p-4">
              <p className="text-sm font-semibold">
                {index + 1}. {ownerSteps[step].title}
              </p>
              <p className="mt-1 text-sm text-slate-600">{ownerSteps[step].body}</p>
            </li>
          ))}
        </ol>
      </section>
      <section>
        <h2 className="text-lg font-semibold">For integrators: the API</h2>
        <p className="mb-4 mt-1 max-w-2xl text-sm text-slate-600">From a script or a deploy pipeline, with an API key:</p>
        <ol className="grid gap-4 sm:grid-cols-2">
          {apiSteps.map((step, index) => (
            <li key={step.title} className="rounded-lg border border-slate-200 bg-white p-4">
              <p className="text-sm font-semibold">
                {index + 1}. {step.title}
              </p>
              <code className="mt-2 block break-words text-xs text-slate-600">{step.body}</code>
            </li>
          ))}
        </ol>
      </section>
      <p className="text-sm text-slate-600">
        Every operation is described in the{" "}
        <Link href="/docs/api" className="font-medium text-brand-700 underline">
          API reference
        </Link>
        .
      </p>
    </div>
  );
}
