// /v1/sites/[siteId]/field: the handlers of app/api/v1/sites/[siteId]/field/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/sites/[siteId]/field/route";
