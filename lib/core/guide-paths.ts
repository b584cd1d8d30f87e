/**
 * Where the guide (docs/guide, served at /docs) answers what a part of the product asks: the
 * dashboard's help links and the messages that send a customer to the guide name them from here,
 * and a test checks that each is a page the guide serves.
 */
export const GUIDE_PATHS = {
  firstSteps: "/docs/site-owners/first-steps",
  provingOwnership: "/docs/site-owners/proving-ownership",
  boosts: "/docs/site-owners/boosts-and-schedules",
  readingARun: "/docs/site-owners/reading-a-run",
  botProtection: "/docs/site-owners/bot-protection",
  changeReceivers: "/docs/site-owners/change-receivers",
  trafficLogs: "/docs/site-owners/traffic-logs",
  trafficAnalytics: "/docs/site-owners/traffic-analytics",
  beacon: "/docs/site-owners/beacon",
  teams: "/docs/site-owners/teams-and-roles",
  usage: "/docs/site-owners/usage-and-plans",
  twoFactor: "/docs/site-owners/two-factor",
  keys: "/docs/integrators/keys-and-scopes",
  apiConventions: "/docs/integrators/api-conventions",
  deployHooks: "/docs/integrators/deploy-hooks",
  warmingFromCi: "/docs/integrators/warming-from-ci",
  sources: "/docs/site-owners/sources",
  webhooks: "/docs/integrators/webhooks",
  operatorConsole: "/docs/operators/operator-console",
} as const;

/** The guide page of each group of the API reference's operations (its OpenAPI tag). */
export const API_TAG_GUIDES: Record<string, string> = {
  Account: GUIDE_PATHS.keys,
  Sites: GUIDE_PATHS.provingOwnership,
  Sitemaps: GUIDE_PATHS.sources,
  Boosts: GUIDE_PATHS.boosts,
  Hooks: GUIDE_PATHS.deployHooks,
  Warm: GUIDE_PATHS.warmingFromCi,
  Changes: GUIDE_PATHS.changeReceivers,
  Traffic: GUIDE_PATHS.trafficLogs,
  Runs: GUIDE_PATHS.readingARun,
  Webhooks: GUIDE_PATHS.webhooks,
  Audit: GUIDE_PATHS.teams,
};

/** A change receiver's own set-up page. */
export const receiverGuidePath = (system: string) => `${GUIDE_PATHS.changeReceivers}/${system}`;

/** Each dashboard page's guide page, by the page's address (first match wins). */
const PAGE_HELP: [RegExp, string][] = [
  [/^\/sites$/, GUIDE_PATHS.firstSteps],
  [/^\/sites\/\d+\/warm$/, GUIDE_PATHS.boosts],
  [/^\/sites\/\d+\/boosts\/new$/, GUIDE_PATHS.boosts],
  [/^\/sites\/\d+$/, GUIDE_PATHS.provingOwnership],
  [/^\/boosts\//, GUIDE_PATHS.boosts],
  [/^\/runs\//, GUIDE_PATHS.readingARun],
  [/^\/webhooks/, GUIDE_PATHS.webhooks],
  [/^\/keys$/, GUIDE_PATHS.keys],
  [/^\/team$/, GUIDE_PATHS.teams],
  [/^\/audit$/, GUIDE_PATHS.teams],
  [/^\/usage$/, GUIDE_PATHS.usage],
  [/^\/account$/, GUIDE_PATHS.twoFactor],
  [/^\/outbox/, GUIDE_PATHS.teams],
  [/^\/operator/, GUIDE_PATHS.operatorConsole],
];

/** The guide page that helps with the page at `pathname`, if there is one. */
export function helpFor(pathname: string): string | undefined {
  return PAGE_HELP.find(([pattern]) => pattern.test(pathname))?.[1];
}
