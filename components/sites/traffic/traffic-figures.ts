import type { TrafficPage, TrafficSource } from "@/components/dashboard/types";
import type { PopularitySourceKind, TrafficReadStatus, TrafficSourceKind } from "@/lib/core/traffic";
import { DEFAULT_READ_EVERY_HOURS } from "@/lib/traffic/schemas";

/** Each kind as the panel names it; the beacon has no source of its own but has counts in the table. */
export const KIND_NAMES: Record<PopularitySourceKind, string> = { access_log: "Access log", plausible: "Plausible", ga4: "Google Analytics 4", beacon: "Beacon" };

/** What each status of a source's last read means, as the API describes it. */
export const STATUS_MEANINGS: Record<TrafficReadStatus, string> = {
  never: "not read yet",
  reading: "a read is under way",
  ok: "the last read stored its visits",
  failed: "the last read failed and stored nothing; the visits of the read before are kept",
};

/** The fields of the add-source form, by the API's names (for its errors). */
export const SOURCE_FIELDS = ["kind", "name", "url", "read_every_hours", "site_id", "api_key", "property_id", "service_account_key"] as const;

/** What the add-source form holds, as typed. */
export type SourceDraft = {
  kind: TrafficSourceKind;
  name: string;
  url: string;
  everyHours: string;
  siteId: string;
  apiKey: string;
  propertyId: string;
  serviceAccountKey: string;
};

export const EMPTY_DRAFT: SourceDraft = {
  kind: "access_log",
  name: "",
  url: "",
  everyHours: String(DEFAULT_READ_EVERY_HOURS),
  siteId: "",
  apiKey: "",
  propertyId: "",
  serviceAccountKey: "",
};

/** Whether Preheat reads the drafted source itself (on its schedule, on demand) rather than waiting for uploads. */
export function draftIsFetched(draft: SourceDraft): boolean {
  return draft.kind !== "access_log" || draft.url.trim() !== "";
}

/**
 * The POST body the draft stands for: only its kind's fields, blanks left out. An emptied schedule
 * is null (read on demand only); a log without a URL sends no schedule, which the API would refuse.
 */
export function sourceBody(draft: SourceDraft): Record<string, unknown> {
  const common = { kind: draft.kind, ...(draft.name.trim() ? { name: draft.name.trim() } : {}) };
  const readEveryHours = draft.everyHours.trim() === "" ? null : Number(draft.everyHours);
  switch (draft.kind) {
    case "access_log":
      return draft.url.trim() ? { ...common, url: draft.url.trim(), read_every_hours: readEveryHours } : common;
    case "plausible":
      return { ...common, site_id: draft.siteId.trim(), api_key: draft.apiKey.trim(), read_every_hours: readEveryHours };
    case "ga4":
      return { ...common, property_id: draft.propertyId.trim(), service_account_key: draft.serviceAccountKey, read_every_hours: readEveryHours };
  }
}

/** Whether Preheat reads the source itself: an access log with a URL, or an analytics tool. */
export function isFetched(source: Pick<TrafficSource, "kind" | "settings">): boolean {
  return source.kind !== "access_log" || Boolean(source.settings.url);
}

/** How often the source is read, in words. */
export function scheduleText(source: Pick<TrafficSource, "kind" | "settings" | "read_every_hours">): string {
  if (!isFetched(source)) return "When a log is uploaded";
  if (source.read_every_hours === null) return "On demand only";
  if (source.read_every_hours === 24) return "Daily, and on demand";
  if (source.read_every_hours % 24 === 0) return `Every ${source.read_every_hours / 24} days, and on demand`;
  return `Every ${source.read_every_hours} hour${source.read_every_hours === 1 ? "" : "s"}, and on demand`;
}

/**
 * The share of the table's visits that its first `top` pages carry, read from the table's first page;
 * null away from the first page, or while the table counts no visit.
 */
export function topShare(page: Pick<TrafficPage, "data" | "offset" | "total_visits">, top = 10): { pages: number; share: number } | null {
  if (page.offset !== 0 || page.total_visits <= 0 || page.data.length === 0) return null;
  const rows = page.data.slice(0, top);
  const visits = rows.reduce((sum, row) => sum + row.visits, 0);
  return { pages: rows.length, share: Math.min(1, visits / page.total_visits) };
}

/** Visits as a whole number (the beacon's are sampled, so a count may be fractional). */
export function visitCount(value: number): string {
  return Math.round(value).toLocaleString("en");
}

/** A share as "81 %", with a decimal under 10 %. */
export function percentText(share: number): string {
  const percent = share * 100;
  return `${percent > 0 && percent < 10 ? percent.toFixed(1) : Math.round(percent)} %`;
}

/** A file's size for people. */
export function byteSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ["kB", "MB", "GB"];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
