import type { RunDetail } from "@/components/dashboard/types";
import { Card, EmptyState } from "@/components/ui/card";
import { TableScroll } from "@/components/ui/table-scroll";
import { count, percent, ratio } from "./format";
import { ColumnHeads, td, tdNum } from "./run-cells";

/** The visitor check (`verify: "visitors"`): what each standard visitor got from the cache after the warm, and why it missed. */
export function VisitorsCard({ run }: { run: RunDetail }) {
  const visitors = run.summary.visitors;
  if (!visitors) return null;
  const asked = visitors.some((v) => v.requests > 0);
  return (
    <Card title="Visitor check" className="min-w-0">
      <p className="mb-3 text-sm text-slate-600">
        After the warm, each standard visitor asked for different URLs of the run, as its browser sends them (with the run’s cookies and Basic auth, not its extra headers): its hit ratio is what such
        visitors get. These requests are not counted in the calls above; a miss among them fills the cache as a visitor’s would.
      </p>
      {!asked ? (
        <EmptyState title="Not checked yet">The check starts a few seconds after the run’s last call.</EmptyState>
      ) : (
        <TableScroll label="Visitor check" className="-mx-4 sm:mx-0">
          <table className="min-w-full divide-y divide-slate-200" data-testid="visitor-check">
            <thead>
              <tr>
                <ColumnHeads labels={["Visitor", "URLs", "Requests", "Hits", "Hit ratio", "Why it missed"]} numeric={["URLs", "Requests", "Hits", "Hit ratio"]} />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {visitors.map((v) => (
                <tr key={v.profile}>
                  <td className={`${td} font-medium`}>{v.label}</td>
                  <td className={tdNum}>{count(v.urls)}</td>
                  <td className={tdNum}>{count(v.requests)}</td>
                  <td className={tdNum}>{count(v.hits)}</td>
                  <td className={`${tdNum} ${v.cause ? "font-semibold text-red-700" : ""}`}>{percent(ratio(v.hits, v.requests))}</td>
                  <td className={`${td} min-w-64 whitespace-normal text-slate-700`}>{v.cause ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </Card>
  );
}

/** What the run likely missed (summary.advice), read from the site's answers: nothing shown when nothing stands out. */
export function AdviceCard({ run }: { run: RunDetail }) {
  const { advice } = run.summary;
  if (!advice.length) return null;
  return (
    <section aria-labelledby="advice-heading" className="rounded-md border border-sky-300 bg-sky-50 px-4 py-3 text-sm text-sky-950">
      <h2 id="advice-heading" className="font-semibold">
        What to change
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5" data-testid="run-advice">
        {advice.map((item) => (
          <li key={`${item.code}:${item.message}`}>{item.message}</li>
        ))}
      </ul>
    </section>
  );
}
