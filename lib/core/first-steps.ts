/** The first things a new organization does, in the order the home page's checklist lists them. */
export const FIRST_STEPS = ["site_added", "ownership_proved", "sitemap_added", "boost_created", "first_run", "colleague_invited"] as const;
export type FirstStep = (typeof FIRST_STEPS)[number];

export type FirstSteps = {
  done: Record<FirstStep, boolean>;
  /** The site the next steps are about: the first one not proved yet, else the first one; null without a site. */
  site_id: number | null;
  /** A boost to run for the first run; null without one. */
  boost_id: number | null;
};
