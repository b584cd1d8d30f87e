"use client";

import { Button } from "@/components/ui/button";
import { PageProblem } from "@/components/ui/page-problem";

/** A page that failed while rendering: say so, offer to try again; the digest lets support find the server's log line. */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <PageProblem
      code="Error"
      title="This page could not be shown"
      actions={
        <Button type="button" onClick={reset}>
          Try again
        </Button>
      }
    >
      <p>Something went wrong on our side; nothing you did was lost. Try again in a moment.</p>
      {error.digest ? <p className="mt-2 text-xs text-slate-500">Reference: {error.digest}</p> : null}
    </PageProblem>
  );
}
