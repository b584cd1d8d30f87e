/**
 * How `--wait` shows a run's progress on stderr: a bar redrawn in place on a terminal, plain lines
 * elsewhere (a CI log keeps every line, so they are written only when something changed, and not
 * more often than every few seconds).
 */

export type Output = { write(text: string): unknown; isTTY?: boolean; columns?: number };

export type RunProgress = { id: number; status: string; progress: { planned_calls: number; completed_calls: number } };

export type ProgressReporter = {
  update(run: RunProgress): void;
  /** Leaves the line the bar was drawn on, before the summary is printed. */
  finish(): void;
};

const PLAIN_LINE_INTERVAL_MS = 5_000;
const BAR_WIDTH = 30;

function figures({ progress }: RunProgress): { done: number; total: number; share: number | null } {
  const total = Math.max(progress.planned_calls, progress.completed_calls);
  return { done: progress.completed_calls, total, share: total > 0 ? progress.completed_calls / total : null };
}

function countText(done: number, total: number): string {
  return total > 0 ? `${done.toLocaleString("en")}/${total.toLocaleString("en")} calls` : "planning";
}

export function barLine(run: RunProgress): string {
  const { done, total, share } = figures(run);
  const filled = Math.round((share ?? 0) * BAR_WIDTH);
  const percent = share === null ? "  -%" : `${Math.floor(share * 100)}%`.padStart(4);
  return `Run ${run.id} [${"#".repeat(filled)}${"-".repeat(BAR_WIDTH - filled)}] ${percent} ${countText(done, total)}, ${run.status}`;
}

export function plainLine(run: RunProgress): string {
  const { done, total, share } = figures(run);
  const percent = share === null ? "" : ` (${Math.floor(share * 100)} %)`;
  return `Run ${run.id}: ${run.status}, ${countText(done, total)}${percent}`;
}

export function progressReporter(output: Output, now: () => number = Date.now): ProgressReporter {
  if (output.isTTY) {
    let drawn = 0;
    return {
      update(run) {
        const line = barLine(run).slice(0, Math.max((output.columns ?? 80) - 1, 20));
        // Spaces wipe what a longer previous line left behind.
        output.write(`\r${line.padEnd(drawn)}`);
        drawn = line.length;
      },
      finish() {
        if (drawn) output.write("\n");
        drawn = 0;
      },
    };
  }
  let last: { line: string; status: string; at: number } | undefined;
  return {
    update(run) {
      const line = plainLine(run);
      if (last && (line === last.line || (run.status === last.status && now() - last.at < PLAIN_LINE_INTERVAL_MS))) return;
      output.write(`${line}\n`);
      last = { line, status: run.status, at: now() };
    },
    finish() {},
  };
}
