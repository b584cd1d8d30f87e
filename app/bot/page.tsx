import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { setting } from "@/lib/config";
import { USER_AGENT_CLASSES } from "@/lib/core/variations";
import { botUserAgent } from "@/lib/fetch/bot";
import { USER_AGENTS } from "@/lib/warm/user-agents";
import { sitemapMaxAgeSeconds } from "@/lib/sitemaps/freshness";
import { KEY_DIRECTORY_PATH } from "@/lib/warm/identify";
import { botSignaturesEnabled } from "@/lib/warm/signing-keys";
import { GUIDE_PATHS } from "@/lib/core/guide-paths";

export const metadata: Metadata = { title: "PreheatBot" };
// The User-Agent names this server's own address, known when it runs, not when it was built.
export const dynamic = "force-dynamic";

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-2">
      <h2 className="text-lg font-semibold">{title}</h2>
      <div className="space-y-2 text-sm leading-6 text-slate-700">{children}</div>
    </section>
  );
}

const code = "rounded bg-slate-100 px-1 py-0.5 font-mono text-xs text-slate-800";

export default function BotPage() {
  const userAgent = botUserAgent();
  const maxAgeMinutes = Math.round(sitemapMaxAgeSeconds() / 60);
  const recheckDays = setting("PREHEAT_OWNERSHIP_RECHECK_DAYS");
  const signatures = botSignaturesEnabled();
  return (
    <article className="max-w-3xl space-y-8">
      <header className="space-y-2">
        <h1 className="text-3xl font-bold tracking-tight">PreheatBot</h1>
        <p className="text-slate-600">
          PreheatBot is the crawler of Preheat, a cache-warming service. It visits a site only because the site&apos;s owner registered it with Preheat and proved they own it. It identifies itself as:
        </p>
        <p>
          <code className={`${code} block break-all p-2`}>{userAgent}</code>
        </p>
      </header>

      <Section title="What it requests">
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <strong>Ownership checks</strong>: the token file (<code className={code}>/&lt;token&gt;.html</code>) together with a randomly named file of the same shape that should not exist, every
            time (on a site that answers 200 for any address and repeats the address in its page, only a file holding the token and nothing else proves anything), then the home page (for the
            <code className={code}>&lt;meta name=&quot;service-token&quot;&gt;</code> tag in its <code className={code}>&lt;head&gt;</code>), when the owner asks to validate, and again while the site
            is validated (below).
          </li>
          <li>
            <strong>Sitemaps, feeds and CSV files</strong> the owner added, their child sitemaps, and <code className={code}>/robots.txt</code> when the owner points Preheat at it or asks it to find
            the site&apos;s sitemaps. A sitemap is read again before a scheduled warming run when it was last read more than {maxAgeMinutes} minutes ago, with{" "}
            <code className={code}>If-None-Match</code> / <code className={code}>If-Modified-Since</code>, so an unchanged sitemap costs one <code className={code}>304</code>.
          </li>
        </ul>
        <p>
          Every request is a <code className={code}>GET</code>, follows at most 5 redirects, gives up after a timeout, and stops reading past the sitemaps protocol&apos;s size limit (50 MB
          uncompressed).
        </p>
      </Section>

      <Section title="Ownership rechecks">
        <p>
          A site stays validated only while its owner keeps the proof in place: Preheat looks for it again every {recheckDays} days (the operator&apos;s{" "}
          <code className={code}>PREHEAT_OWNERSHIP_RECHECK_DAYS</code>), and daily for a week once it is missing, before the site stops being validated. A recheck sends the same requests as the
          owner&apos;s own check, and you can recognise them by:
        </p>
        <ul className="list-disc space-y-1 pl-5" data-testid="recheck-requests">
          <li>
            the User-Agent <code className={`${code} break-all`}>{userAgent}</code>, with <code className={code}>Accept-Encoding: gzip, deflate, br</code>, and no{" "}
            <code className={code}>Preheat-Verification</code> or signature header (those are on warming calls only);
          </li>
          <li>
            over HTTPS first, then over HTTP unless HTTPS proved ownership: two <code className={code}>GET /preheat-&lt;32 hexadecimal digits&gt;.html</code> at once (the site&apos;s token file and a
            random name of the same shape), then, unless the file proved ownership, <code className={code}>GET /</code> with <code className={code}>Accept: text/html</code>.
          </li>
        </ul>
        <p>
          The DNS method makes no HTTP request: it is a lookup of the TXT record <code className={code}>_preheat-challenge.&lt;domain&gt;</code> through Preheat&apos;s DNS resolvers. A site proven by
          its DNS record is rechecked in DNS first, so it sees no request at all while the record holds; any other site is looked up in DNS only when the requests above did not prove ownership.
        </p>
      </Section>

      <Section title="Warming calls">
        <p>
          Warming the pages themselves is not done as PreheatBot: a cache keeps one copy per kind of visitor, so warming calls send the User-Agent of the visitors the owner chose to warm for, with the
          languages they chose. Their pace is the site&apos;s own limit, set by its owner (concurrent requests and requests per second), held across every Preheat worker and region; Preheat also slows
          down by itself when the site answers slower or with errors, and waits as long as a <code className={code}>Retry-After</code> asks.
        </p>
        <p>The visitors an owner may choose, exactly as the boost and warm forms name them, and the User-Agent each sends:</p>
        <dl className="space-y-2" data-testid="warming-user-agents">
          {USER_AGENT_CLASSES.map((agent) => (
            <div key={agent}>
              <dt className="font-medium">{agent}</dt>
              <dd>
                <code className={`${code} break-all`}>{USER_AGENTS[agent]}</code>
              </dd>
            </div>
          ))}
        </dl>
      </Section>

      <Section title="How a warming call proves it is Preheat's">
        <p>
          A warming call that speaks as Googlebot or GPTBot does not come from Google&apos;s or OpenAI&apos;s network, and bot protection is right to doubt it. So every warming call carries a secret
          of the site&apos;s own, <code className={code}>Preheat-Verification: &lt;secret&gt;</code>, which its owner finds on the site&apos;s page in Preheat (and may rotate): a firewall rule that
          lets requests with that value through lets exactly Preheat through, and nobody who merely copies its User-Agent.
        </p>
        <p>
          {signatures ? "This Preheat also signs" : "A Preheat whose operator turns signatures on also signs"} its warming calls with HTTP Message Signatures as Web Bot Auth defines them (Ed25519,{" "}
          <code className={code}>Signature-Agent</code>, <code className={code}>Signature-Input</code>, <code className={code}>Signature</code>, covering the host and the agent), verifiable against
          the keys published at{" "}
          <a href={KEY_DIRECTORY_PATH} className="font-medium text-brand-700 underline">
            {KEY_DIRECTORY_PATH}
          </a>
          .
        </p>
        <p>
          <Link href={GUIDE_PATHS.botProtection} className="font-medium text-brand-700 underline">
            How to let Preheat through
          </Link>{" "}
          on Cloudflare, Akamai, Fastly, AWS WAF, Imperva, Sucuri and Vercel&apos;s firewall.
        </p>
      </Section>

      <Section title="Allowing it">
        <p>
          If a firewall or bot protection stands in front of your site, allow requests whose User-Agent starts with <code className={code}>PreheatBot/</code> to your sitemaps, feeds and{" "}
          <code className={code}>robots.txt</code>, so that Preheat can read the list of pages to warm.
        </p>
      </Section>

      <Section title="Blocking it">
        <p>
          PreheatBot reads only what a verified owner of the site registered, acting on their behalf, so it does not apply
          <code className={code}>robots.txt</code> <code className={code}>Disallow</code> rules. If you own the site, remove it from your Preheat account, or pause its boosts, and nothing more is
          requested. If you run the network in front of the site, refuse requests whose User-Agent contains <code className={code}>PreheatBot</code>; a sitemap it cannot read leaves the owner&apos;s
          warming runs on the last list read, and says so.
        </p>
      </Section>

      <p className="text-sm text-slate-600">
        Preheat&apos;s API is described in the{" "}
        <Link href="/docs/api" className="font-medium text-brand-700 underline">
          API reference
        </Link>
        .
      </p>
    </article>
  );
}
