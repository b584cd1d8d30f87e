import { type ReactNode, useId } from "react";
import { describedBy, FieldNotes } from "./field";

/** A group of checkboxes under one legend, with its hint and its error. */
export function CheckboxGroup({ legend, hint, error, children }: { legend: string; hint?: ReactNode; error?: string; children: ReactNode }) {
  const id = useId();
  return (
    <fieldset aria-describedby={describedBy(id, hint, error)} aria-invalid={error ? true : undefined} className="space-y-2">
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className="flex flex-wrap gap-x-5 gap-y-2">{children}</div>
      <FieldNotes id={id} hint={hint} error={error} />
    </fieldset>
  );
}

export function Check({ label, checked, onChange, disabled, name }: { label: ReactNode; checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean; name?: string }) {
  return (
    <label className="inline-flex min-h-6 items-center gap-2 text-sm text-slate-800">
      <input
        type="checkbox"
        name={name}
        className="size-4 rounded border-slate-300 text-brand-600 focus:ring-brand-500"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
      {label}
    </label>
  );
}

/** `list` with `value` in it (`on`) or not, in the order values were chosen. */
export const toggle = <T,>(list: T[], value: T, on: boolean) => (on ? [...list.filter((v) => v !== value), value] : list.filter((v) => v !== value));
