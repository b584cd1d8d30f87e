/*
 * The operator console's view of the job queues (lib/worker/queues.ts reads it from pg-boss), declared
 * here, beside the port, so that the console's components can name its shape without reaching the worker.
 */

type QueueFigures = { name: string; waiting: number; active: number; failed: number; oldest_waiting_at: string | null; oldest_waiting_seconds: number | null };
type FailedJob = { id: string; queue: string; data: unknown; error: string | null; retries: number; failed_at: string | null };
export type QueuesView = { driver: "pg-boss"; queues: QueueFigures[]; failed: FailedJob[] } | { driver: "inngest"; queues: []; failed: [] };
