// /v1/sites/[siteId]/traffic-sources: the handlers of app/api/v1/sites/[siteId]/traffic-sources/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/sites/[siteId]/traffic-sources/route";
