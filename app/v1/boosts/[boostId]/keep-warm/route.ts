// /v1/boosts/[boostId]/keep-warm: the handlers of app/api/v1/boosts/[boostId]/keep-warm/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/boosts/[boostId]/keep-warm/route";
