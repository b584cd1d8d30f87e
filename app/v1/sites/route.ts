// /v1/sites: the handlers of app/api/v1/sites/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/sites/route";
