// /v1/boosts: the handlers of app/api/v1/boosts/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/boosts/route";
