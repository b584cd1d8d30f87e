// /v1/sites/[siteId]/sitemaps/[sitemapId]/refresh: the handlers of app/api/v1/sites/[siteId]/sitemaps/[sitemapId]/refresh/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/sites/[siteId]/sitemaps/[sitemapId]/refresh/route";
