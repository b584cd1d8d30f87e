import { ApiError, DASHBOARD_HEADER } from "@/components/dashboard/api";
import type { TrafficSource } from "@/components/dashboard/types";

/** The site's whole popularity table as a CSV file, saved by the browser. */
export async function downloadTrafficCsv(siteId: number, name: string): Promise<void> {
  const response = await fetch(`/api/v1/sites/${siteId}/traffic?format=csv`, { headers: { [DASHBOARD_HEADER]: "1" }, credentials: "same-origin" });
  if (!response.ok) throw new Error(`The download failed (${response.status}).`);
  const link = document.createElement("a");
  link.href = URL.createObjectURL(await response.blob());
  link.download = name;
  link.click();
  URL.revokeObjectURL(link.href);
}

export type UploadProgress = { sent: number; total: number };

/**
 * Sends a log's bytes as the body of POST …/upload (the API reads it as it streams in, gzip
 * recognised by its first bytes). Through XMLHttpRequest rather than fetch: only it reports the
 * bytes sent, and a log may be a gigabyte. Answers the source with its counts once the last line is
 * read; `signal` aborts.
 */
export function uploadTrafficLog(path: string, file: File, onProgress: (progress: UploadProgress) => void, signal: AbortSignal): Promise<TrafficSource> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", `/api/v1${path}`);
    request.setRequestHeader(DASHBOARD_HEADER, "1");
    request.setRequestHeader("content-type", "application/octet-stream");
    request.upload.onprogress = (event) => onProgress({ sent: event.loaded, total: event.lengthComputable ? event.total : file.size });
    request.onload = () => {
      let payload: { error?: string; details?: unknown } | null = null;
      try {
        payload = JSON.parse(request.responseText);
      } catch {
        payload = null;
      }
      if (request.status >= 200 && request.status < 300 && payload) return resolve(payload as TrafficSource);
      if (request.status === 401) window.location.href = `/signin?callbackUrl=${encodeURIComponent(window.location.pathname)}`;
      const message = payload?.error ?? `The server answered ${request.status}.`;
      reject(new ApiError(request.status, message, Array.isArray(payload?.details) ? payload.details : []));
    };
    request.onerror = () => reject(new Error("The upload stopped: the connection to Preheat was lost. Try again: a log uploaded twice is counted once."));
    request.onabort = () => reject(new DOMException("The upload was cancelled.", "AbortError"));
    signal.addEventListener("abort", () => request.abort(), { once: true });
    request.send(file);
  });
}
