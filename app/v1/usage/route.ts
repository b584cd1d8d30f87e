// /v1/usage: the handlers of app/api/v1/usage/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/usage/route";
