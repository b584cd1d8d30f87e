// /v1/sites/[siteId]/verification/rotate: the handlers of app/api/v1/sites/[siteId]/verification/rotate/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/sites/[siteId]/verification/rotate/route";
