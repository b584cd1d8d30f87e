// /v1/sites/[siteId]/traffic-sources/[sourceId]/read: the handlers of app/api/v1/sites/[siteId]/traffic-sources/[sourceId]/read/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/sites/[siteId]/traffic-sources/[sourceId]/read/route";
