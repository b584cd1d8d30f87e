// /v1/sites/[siteId]/boosts/[boostId]/run: the handlers of app/api/v1/sites/[siteId]/boosts/[boostId]/run/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/sites/[siteId]/boosts/[boostId]/run/route";
