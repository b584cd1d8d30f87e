import { readFileSync } from "node:fs";
import { cpuSecondsOf } from "./postgres-workers";

/** CPU seconds the whole machine spent busy and idle since boot (/proc/stat, in USER_HZ ticks of 1/100 s); undefined without /proc (not Linux). */
function machineSeconds(): { busy: number; idle: number } | undefined {
  let first: string;
  try {
    first = readFileSync("/proc/stat", "utf8").split("\n")[0]!;
  } catch {
    return undefined;
  }
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = first.trim().split(/\s+/).slice(1).map(Number);
  return { busy: (user + nice + system + irq + softirq + steal) / 100, idle: (idle + iowait) / 100 };
}

function ownSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

export type CpuSnapshot = { machine: { busy: number; idle: number } | undefined; processes: Map<string, number> };

/** The machine's CPU and each named process's (by pid; the bench's own pid counts its own threads) at this moment. */
export function cpuSnapshot(pids: Record<string, number | number[]>): CpuSnapshot {
  const processes = new Map<string, number>();
  for (const [name, pid] of Object.entries(pids)) {
    const list = Array.isArray(pid) ? pid : [pid];
    processes.set(
      name,
      list.reduce((sum, p) => sum + (p === process.pid ? ownSeconds() : (cpuSecondsOf(p) ?? 0)), 0),
    );
  }
  return { machine: machineSeconds(), processes };
}

/**
 * Where the machine's cores went between two snapshots: each named process's CPU seconds, the rest
 * (the database server, the system), and idle. Whether a case is bound by one process's thread or by
 * the whole machine shows here: a server near one core with the machine idle is the first.
 */
export function cpuSplit(from: CpuSnapshot, to: CpuSnapshot): string {
  if (!from.machine || !to.machine) return "not measured (no /proc/stat on this system)";
  const busy = to.machine.busy - from.machine.busy;
  const idle = to.machine.idle - from.machine.idle;
  let named = 0;
  const parts = [...to.processes].map(([name, seconds]) => {
    const used = seconds - (from.processes.get(name) ?? 0);
    named += used;
    return `${name} ${used.toFixed(1)}`;
  });
  return `${(busy + idle).toFixed(1)} core-seconds: ${parts.join(", ")}, the rest ${Math.max(0, busy - named).toFixed(1)}, idle ${idle.toFixed(1)} (${Math.round((100 * idle) / (busy + idle))} %)`;
}
