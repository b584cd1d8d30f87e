// /v1/boosts/[boostId]/hooks: the handlers of app/api/v1/boosts/[boostId]/hooks/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/boosts/[boostId]/hooks/route";
