/** The orders a boost's URLs can be warmed in: the API's schemas, the planner and the dashboard's form all name them. */
export const URL_ORDERS = ["sitemap", "priority", "lastmod", "traffic"] as const;
export type UrlOrder = (typeof URL_ORDERS)[number];

/** Each order in a few words, for the dashboard. */
export const URL_ORDER_LABELS: Record<UrlOrder, string> = {
  sitemap: "As the sitemaps list them",
  priority: "Highest <priority> first",
  lastmod: "Newest <lastmod> first",
  traffic: "Most visited first (the Traffic panel's table)",
};
