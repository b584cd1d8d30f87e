import type { ReactNode } from "react";
import { Button } from "./button";
import { CopyButton } from "./copy-button";

/**
 * A secret the API answers only once (an API key, a webhook's signing secret, a deploy hook's URL):
 * shown with a copy button until the owner is done with it. `children`: how to use it.
 */
export function ShownOnce({
  title,
  warning,
  label,
  value,
  onDone,
  className = "",
  children,
}: {
  title: string;
  warning: string;
  label: string;
  value: string;
  onDone: () => void;
  className?: string;
  children?: ReactNode;
}) {
  return (
    <div role="status" className={`rounded-lg border border-green-300 bg-green-50 p-4 ${className}`.trim()}>
      <p className="text-sm font-semibold text-green-900">{title}</p>
      <p className="mt-1 text-sm text-green-800">{warning}</p>
      <div className="mt-3 flex flex-col gap-2 sm:flex-row">
        <input readOnly aria-label={label} value={value} onFocus={(e) => e.target.select()} className="min-w-0 flex-1 rounded-md border border-green-300 bg-white px-3 py-2 font-mono text-sm" />
        <CopyButton value={value} />
        <Button variant="ghost" onClick={onDone}>
          Done
        </Button>
      </div>
      {children}
    </div>
  );
}
