import { describeTrigger, type RunTrigger } from "@/lib/core/run-trigger";

/** Under a run's time in a list: what started it, in one short line (the whole sentence on hover). */
export function RunTriggerLine({ trigger }: { trigger: RunTrigger | null }) {
  const words = describeTrigger(trigger);
  if (!words) return null;
  return (
    <p className="mt-1 max-w-[14rem] truncate text-xs text-slate-500" title={`Started by ${words}`}>
      by {words}
    </p>
  );
}
