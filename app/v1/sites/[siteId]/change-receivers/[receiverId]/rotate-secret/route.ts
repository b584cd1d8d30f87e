// /v1/sites/[siteId]/change-receivers/[receiverId]/rotate-secret: the handlers of app/api/v1/sites/[siteId]/change-receivers/[receiverId]/rotate-secret/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/sites/[siteId]/change-receivers/[receiverId]/rotate-secret/route";
