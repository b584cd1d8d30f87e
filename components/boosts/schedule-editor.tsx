"use client";

import { useEffect, useId, useState } from "react";
import { checkCron, nextRunTimes } from "@/lib/core/schedule";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { TableScroll } from "@/components/ui/table-scroll";
import { describeSchedule, SCHEDULE_PRESETS } from "./cron";

const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/** The viewer's time zone is only known in the browser: rendered after mount, in rows of fixed height. */
function useMounted() {
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted;
}

/**
 * Cron schedule (UTC): presets, the raw field, the expression in words and its next five runs in
 * UTC and in the viewer's time zone. An empty field means no schedule.
 */
export function ScheduleEditor({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: string }) {
  const id = useId();
  const mounted = useMounted();
  const trimmed = value.trim();
  const checked = trimmed ? checkCron(trimmed) : null;
  const problem = checked && "problem" in checked ? `Schedule ${checked.problem}` : null;
  const expression = checked && "expression" in checked ? checked.expression : null;
  const words = expression ? describeSchedule(expression) : null;
  let next: Date[] = [];
  if (expression && mounted) {
    try {
      next = nextRunTimes(expression, 5);
    } catch {
      next = [];
    }
  }
  const zone = mounted ? Intl.DateTimeFormat().resolvedOptions().timeZone : "";
  const local = (date: Date) => new Intl.DateTimeFormat(undefined, { weekday: "short", year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }).format(date);
  const shownError = error ?? undefined;
  const described = [`${id}-hint`, `${id}-words`, shownError ? `${id}-error` : null].filter(Boolean).join(" ");

  return (
    <div className="space-y-3">
      {/* biome-ignore lint/a11y/useSemanticElements: a row of buttons, not form fields: a fieldset would bring a legend and a border */}
      <div role="group" aria-label="Schedule presets" className="flex flex-wrap gap-2">
        {SCHEDULE_PRESETS.map((preset) => {
          const active = preset.cron === "" ? trimmed === "" : expression === preset.cron;
          return (
            <Button key={preset.name} variant={active ? "primary" : "secondary"} aria-pressed={active} onClick={() => onChange(preset.cron)}>
              {preset.name}
            </Button>
          );
        })}
      </div>
      <div className="space-y-1">
        <label htmlFor={id} className="block text-sm font-medium text-slate-800">
          Schedule (cron, UTC)
        </label>
        <input
          id={id}
          name="schedule"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          placeholder="e.g. 0 3 * * *"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={shownError ? true : undefined}
          aria-describedby={described}
          className={`${inputClass} font-mono sm:max-w-xs`}
        />
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          Five fields: minute hour day-of-month month day-of-week, always in UTC, or @hourly, @daily, @weekly, @monthly, @yearly. Empty: no schedule (runs only when started by hand or the API).
        </p>
        {shownError ? (
          <p id={`${id}-error`} role="alert" className="text-xs font-medium text-red-600">
            {shownError}
          </p>
        ) : null}
      </div>
      <div className="rounded-md bg-slate-50 px-3 py-2 text-sm">
        <p id={`${id}-words`} aria-live="polite" className="font-medium text-slate-800">
          {!trimmed ? "No schedule: the boost runs only when started." : problem ? <span className="text-amber-700">{problem}</span> : (words ?? expression)}
        </p>
        {expression ? (
          <TableScroll label="Next five runs" className="mt-2">
            <table className="text-xs tabular-nums text-slate-700">
              <caption className="mb-1 text-left text-xs font-medium text-slate-600">Next five runs</caption>
              <thead>
                <tr>
                  <th scope="col" className="pr-6 text-left font-medium text-slate-500">
                    UTC
                  </th>
                  <th scope="col" className="text-left font-medium text-slate-500">
                    Your time{zone ? ` (${zone})` : ""}
                  </th>
                </tr>
              </thead>
              <tbody>
                {Array.from({ length: 5 }, (_, index) => next[index]).map((date, index) => (
                  <tr key={index} className="h-5">
                    <td className="whitespace-nowrap pr-6">{date ? utc(date) : "\u00a0"}</td>
                    <td className="whitespace-nowrap">{date ? local(date) : "\u00a0"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        ) : null}
      </div>
    </div>
  );
}
