/** Boost statuses and what each means, in a module of their own: the API's description and the dashboard's badges read the same sentences. */
export const BOOST_STATUSES = ["pending", "running", "active", "paused"] as const;
export type BoostStatus = (typeof BOOST_STATUSES)[number];

export const BOOST_STATUS_MEANINGS: Record<BoostStatus, string> = {
  pending: "Not run yet: created or resumed, and no run has ended since.",
  running: "A run of it is queued or warming.",
  active: "Its last run ended (done or failed); its schedule, if any, starts the next one.",
  paused: "Auto-paused after a high error rate: its schedule does not fire until it is run or updated.",
};
