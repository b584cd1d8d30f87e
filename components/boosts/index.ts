export { SiteWarmRuns } from "@/components/runs/site-warm-runs";
export { SiteBoosts } from "./site-boosts";
