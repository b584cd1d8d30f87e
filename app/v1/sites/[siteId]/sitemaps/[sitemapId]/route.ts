// /v1/sites/[siteId]/sitemaps/[sitemapId]: the handlers of app/api/v1/sites/[siteId]/sitemaps/[sitemapId]/route.ts (lib/api/public-routes.ts).
export { GET, POST, PUT, PATCH, DELETE } from "@/app/api/v1/sites/[siteId]/sitemaps/[sitemapId]/route";
