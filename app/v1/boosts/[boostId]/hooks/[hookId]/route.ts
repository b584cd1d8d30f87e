// /v1/boosts/[boostId]/hooks/[hookId]: the handlers of app/api/v1/boosts/[boostId]/hooks/[hookId]/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/boosts/[boostId]/hooks/[hookId]/route";
