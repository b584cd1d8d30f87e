"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "@/components/dashboard/api";
import type { Site } from "@/components/dashboard/types";
import { Button, buttonClass } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { LocalTime } from "@/components/ui/local-time";
import { Can } from "@/components/dashboard/role";
import { dnsChallengeName, dnsChallengeValue } from "@/lib/core/dns-challenge";

const methodNames = { html_file: "the token file", meta_tag: "the meta tag", dns_txt: "the DNS TXT record" } as const;

function tokenFileHref(token: string): string {
  return `data:text/html;charset=utf-8,${encodeURIComponent(token)}`;
}

/** The three ownership proofs, each with exactly what to publish, and the check itself. */
export function ValidationPanel({ site }: { site: Site }) {
  const recheck = site.ownership_recheck;
  if (site.validated && !recheck.proof_missing_since) {
    return (
      <Card title="Ownership">
        <p className="text-sm text-slate-700">
          Validated {site.validation_method ? `with ${methodNames[site.validation_method]}` : ""} on <LocalTime value={site.validated_at} />. Keep the proof in place: Preheat looks for it again from
          time to time
          {recheck.next_check_at ? (
            <>
              {" "}
              (next on <LocalTime value={recheck.next_check_at} />)
            </>
          ) : null}
          . If it is gone, you are e-mailed, and the site stops being validated 7 days later unless it is back.
        </p>
      </Card>
    );
  }
  if (site.validated) {
    return (
      <Card title="Your ownership proof is missing">
        <p role="status" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          Since <LocalTime value={recheck.proof_missing_since} />, Preheat cannot find the proof on {site.domain}: {recheck.problem} Publish one of these again, then validate, before{" "}
          <LocalTime value={recheck.unvalidates_at} />: after that the site is no longer validated and its runs are capped.
        </p>
        <ProofInstructions site={site} />
      </Card>
    );
  }
  return (
    <Card title="Prove you own this site">
      {recheck.proof_missing_since ? (
        <p role="status" className="mb-4 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          This site is no longer validated: its ownership proof was missing since <LocalTime value={recheck.proof_missing_since} /> ({recheck.problem})
        </p>
      ) : null}
      <p className="mb-4 text-sm text-slate-600">
        Until {site.domain} is validated, boosts warm 10 URLs at most and on-demand warms are refused. Publish one of these, then validate. Preheat asks over HTTPS first, then HTTP, then looks up the
        DNS record.
      </p>
      <ProofInstructions site={site} />
    </Card>
  );
}

function ProofInstructions({ site }: { site: Site }) {
  const queryClient = useQueryClient();
  const validate = useMutation({
    mutationFn: () => api<{ validated: true; already_validated?: boolean }>(`/sites/${site.id}/validate`, { method: "POST" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["sites"] }),
  });
  const fileName = `${site.validation_token}.html`;
  const metaTag = `<meta name="service-token" content="${site.validation_token}">`;
  const recordName = dnsChallengeName(site.domain);
  const recordValue = dnsChallengeValue(site.validation_token);
  return (
    <>
      {/* The tracks and cards may be narrower than the longest token: each long string wraps inside its own box, never widening the page. */}
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2 xl:grid-cols-3">
        <div className="min-w-0 rounded-md border border-slate-200 p-3">
          <h3 className="text-sm font-semibold">1. A file at the site root</h3>
          <p className="mt-1 text-sm text-slate-600">
            Serve <code className="break-all rounded bg-slate-100 px-1">{`https://${site.domain}/${fileName}`}</code> with status 200 and the token as its only content. Preheat also asks for a file
            that does not exist: if your site answers 200 for any address and repeats that address in the page (a search or &ldquo;not found&rdquo; page), only a file holding the token and nothing
            else proves ownership there.
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <a className={buttonClass("secondary")} href={tokenFileHref(site.validation_token)} download={fileName}>
              Download {fileName.length > 28 ? "the token file" : fileName}
            </a>
            <CopyButton value={fileName} label="Copy file name" />
          </div>
        </div>
        <div className="min-w-0 rounded-md border border-slate-200 p-3">
          <h3 className="text-sm font-semibold">2. A meta tag in the homepage</h3>
          <p className="mt-1 text-sm text-slate-600">
            Put this in the <code>&lt;head&gt;</code> of <code className="break-all">{`https://${site.domain}/`}</code>:
          </p>
          <pre className="mt-2 whitespace-pre-wrap break-all rounded bg-code-block p-2 text-xs text-code-block-text">{metaTag}</pre>
          <div className="mt-3">
            <CopyButton value={metaTag} label="Copy meta tag" />
          </div>
        </div>
        <div className="min-w-0 rounded-md border border-slate-200 p-3" data-testid="dns-proof">
          <h3 className="text-sm font-semibold">3. A DNS TXT record</h3>
          <p className="mt-1 text-sm text-slate-600">Add this record at your DNS provider; the site need not answer at all. A CNAME on the name is followed.</p>
          <dl className="mt-2 grid gap-2 text-sm">
            <dt className="font-medium text-slate-700">Name</dt>
            <dd className="flex flex-wrap items-center gap-2">
              <code className="break-all rounded bg-slate-100 px-1">{recordName}</code>
              <CopyButton value={recordName} label="Copy record name" />
            </dd>
            <dt className="font-medium text-slate-700">Type</dt>
            <dd>
              <code className="rounded bg-slate-100 px-1">TXT</code>
            </dd>
            <dt className="font-medium text-slate-700">Value</dt>
            <dd className="flex flex-wrap items-center gap-2">
              <code className="break-all rounded bg-slate-100 px-1">{recordValue}</code>
              <CopyButton value={recordValue} label="Copy record value" />
            </dd>
          </dl>
        </div>
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3" aria-live="polite">
        <Can atLeast="admin" otherwise={<p className="text-sm text-slate-600">Once one of these is in place, an admin or owner of the organization validates the site.</p>}>
          <Button busy={validate.isPending} onClick={() => validate.mutate()}>
            Validate now
          </Button>
        </Can>
        {validate.error ? (
          <p role="alert" className="text-sm text-red-700">
            Not validated: {validate.error.message}
          </p>
        ) : null}
      </div>
    </>
  );
}
