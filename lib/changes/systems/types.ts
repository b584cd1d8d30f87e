import type { UrlTemplates } from "../receiver-schemas";

/** A delivery as it arrived, in plain values: nothing of HTTP's objects reaches the domain. */
export type InboundDelivery = {
  method: string;
  /** The path the system sent to (`/v1/receivers/{publicId}`), which Contentful signs. */
  path: string;
  /** Lower-cased names. */
  headers: Record<string, string>;
  /** The raw body: signatures are over these bytes, never over a re-encoded JSON. */
  body: Uint8Array;
};

/** Whether a delivery proves it comes from the system; `eventId` names it, for a system that dedupes by an id. */
type Verdict = { ok: true; eventId?: string } | { ok: false; reason: string };

/** What a verified, parsed payload asks for. */
type Reading =
  /** Map the payload through the templates of `key` (a topic's resource, a content type, a model). */
  | { action: "map"; key: string | undefined; event: string | null }
  /** A deploy: warm what the site's sitemaps say changed. */
  | { action: "deploy"; event: string | null }
  /** Nothing to warm: a topic or an event that changes no page. */
  | { action: "ignore"; event: string | null; reason: string };

/** One system's way of proving and of saying what changed. */
export type ChangeSystem = {
  /** Checked before anything of the body is read. `now` in milliseconds. */
  verify(delivery: InboundDelivery, secret: string, now: number): Promise<Verdict>;
  read(payload: unknown, headers: Record<string, string>): Reading;
  /** The templates a new receiver starts with when none are given. */
  defaultTemplates: UrlTemplates;
  /** Deploy notifications take no templates. */
  takesTemplates: boolean;
};

/** How old a signed timestamp may be (Contentful, Sanity), and how far ahead of our clock: past it a delivery is a replay. */
export const REPLAY_WINDOW_SECONDS = 300;
