/**
 * The dashboard speaks to the same /v1 operations as integrators (same validation, same rules),
 * authenticated by its session cookie and the dashboard header, plus a few dashboard-only routes.
 */
export const DASHBOARD_HEADER = "x-preheat-dashboard";

export type FieldProblem = { field: string; message: string };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: FieldProblem[] = [],
  ) {
    super(message);
  }

  /** The message for one form field, if the server named it. */
  field(name: string): string | undefined {
    return this.details.find((d) => d.field === name || d.field.startsWith(`${name}.`) || d.field.startsWith(`${name}[`))?.message;
  }
}

export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(path.startsWith("/api/") ? path : `/api/v1${path}`, {
    method: init.method ?? "GET",
    headers: { [DASHBOARD_HEADER]: "1", ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    credentials: "same-origin",
  });
  if (response.status === 204) return undefined as T;
  const payload = await response.json().catch(() => ({ error: `The server answered ${response.status}.` }));
  if (!response.ok) {
    if (response.status === 401 && typeof window !== "undefined") {
      window.location.href = `/signin?callbackUrl=${encodeURIComponent(window.location.pathname)}`;
    }
    throw new ApiError(response.status, payload.error ?? `The server answered ${response.status}.`, Array.isArray(payload.details) ? payload.details : []);
  }
  return payload as T;
}
