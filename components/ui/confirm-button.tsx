"use client";

import { type ReactNode, useState } from "react";
import { Button } from "./button";

/** A destructive action in two steps: the first click asks (with `details`, what it will take with it), the second one acts. */
export function ConfirmButton({
  label,
  confirmLabel,
  question,
  details,
  busy,
  onConfirm,
}: {
  label: string;
  confirmLabel: string;
  question: string;
  details?: ReactNode;
  busy?: boolean;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <Button variant="secondary" onClick={() => setAsking(true)}>
        {label}
      </Button>
    );
  }
  return (
    // biome-ignore lint/a11y/useSemanticElements: a question and its two buttons inside a line of text, not form fields
    <span role="group" aria-label={question} className="inline-flex flex-wrap items-center gap-2">
      <span className="text-sm text-slate-700">{question}</span>
      {details}
      <Button variant="danger" busy={busy} onClick={onConfirm} autoFocus>
        {confirmLabel}
      </Button>
      <Button variant="ghost" onClick={() => setAsking(false)}>
        Cancel
      </Button>
    </span>
  );
}
