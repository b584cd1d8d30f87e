// /v1/me: the handlers of app/api/v1/me/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/me/route";
