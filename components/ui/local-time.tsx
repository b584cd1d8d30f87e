"use client";

import { useEffect, useState } from "react";

const formatter = (options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(undefined, options);

/**
 * A date in the viewer's time zone, with UTC on hover. Rendered in UTC on the server and replaced
 * after hydration; the two need not be as wide, so a date in running text may reflow its paragraph
 * (a page that loads its cards together, LoadsTogether, does so out of sight).
 */
export function LocalTime({ value, empty = "—" }: { value: string | null | undefined; empty?: string }) {
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    if (value) setLocal(formatter({ dateStyle: "medium", timeStyle: "short" }).format(new Date(value)));
  }, [value]);
  if (!value) return <span className="text-slate-500">{empty}</span>;
  const utc = `${new Date(value).toISOString().replace("T", " ").slice(0, 16)} UTC`;
  return (
    <time dateTime={value} title={utc} className="tabular-nums">
      {local ?? utc}
    </time>
  );
}
