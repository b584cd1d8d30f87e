"use client";

import { useEffect, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";

/** The codes as a text file says them: one a line, with what they are for. */
function recoveryCodesText(codes: readonly string[], account: string): string {
  return [`Preheat recovery codes for ${account}`, "Each one signs you in once, instead of a code from the app.", "", ...codes, ""].join("\n");
}

function download(codes: readonly string[], account: string): void {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([recoveryCodesText(codes, account)], { type: "text/plain;charset=utf-8" }));
  link.download = "preheat-recovery-codes.txt";
  link.click();
  URL.revokeObjectURL(link.href);
}

/** Prints the codes alone, from a window of their own: the dashboard around them is not printed. */
function print(codes: readonly string[], account: string): void {
  const sheet = window.open("", "_blank", "width=480,height=640");
  if (!sheet) return;
  const pre = sheet.document.createElement("pre");
  pre.textContent = recoveryCodesText(codes, account);
  pre.style.font = "14px/1.6 ui-monospace, monospace";
  sheet.document.title = "Preheat recovery codes";
  sheet.document.body.append(pre);
  sheet.focus();
  sheet.print();
  sheet.close();
}

/**
 * Recovery codes shown once (issue 60, item 4): every code on a line of its own, to download or print,
 * and "Done" only once the user says they are saved; leaving the page before that asks first.
 */
export function RecoveryCodes({ codes, account, onDone, className = "" }: { codes: readonly string[]; account: string; onDone: () => void; className?: string }) {
  const [saved, setSaved] = useState(false);
  const confirmId = useId();
  useEffect(() => {
    if (saved) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [saved]);
  return (
    <section role="status" aria-label="Your recovery codes" className={`rounded-lg border border-green-300 bg-green-50 p-4 ${className}`.trim()}>
      <p className="text-sm font-semibold text-green-900">Your recovery codes</p>
      <p className="mt-1 text-sm text-green-800">Each one signs you in once if you lose your phone. Keep them somewhere safe, away from the phone: they are not shown again.</p>
      <ol className="mt-3 grid grid-cols-1 gap-x-6 gap-y-1 rounded-md border border-green-300 bg-white p-3 font-mono text-sm sm:grid-cols-2" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code} className="tabular-nums">
            {code}
          </li>
        ))}
      </ol>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => download(codes, account)}>
          Download (.txt)
        </Button>
        <Button variant="secondary" onClick={() => print(codes, account)}>
          Print
        </Button>
        <CopyButton value={codes.join("\n")} />
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <label htmlFor={confirmId} className="flex items-center gap-2 text-sm text-green-900">
          <input id={confirmId} type="checkbox" checked={saved} onChange={(event) => setSaved(event.target.checked)} />I have saved these codes
        </label>
        <Button variant="ghost" disabled={!saved} onClick={onDone}>
          Done
        </Button>
      </div>
    </section>
  );
}
