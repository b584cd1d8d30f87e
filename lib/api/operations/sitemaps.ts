import { z } from "zod";
import { paginationQuery, pageOf } from "@/lib/core/pagination";
import { siteParams, siteSitemapParams } from "@/lib/api/params";
import { addSitemapBody, discoveredSitemapsSchema, sitemapSchema } from "@/lib/sitemaps/schemas";
import { defineOperation } from "../operation";

export const listSitemaps = defineOperation({
  operationId: "listSitemaps",
  method: "get",
  path: "/v1/sites/{siteId}/sitemaps",
  tag: "Sitemaps",
  summary: "List the site's sitemaps",
  scope: "sites:read",
  params: siteParams,
  query: paginationQuery,
  status: 200,
  response: pageOf(sitemapSchema, "SitemapPage"),
});

export const addSitemap = defineOperation({
  operationId: "addSitemap",
  method: "post",
  path: "/v1/sites/{siteId}/sitemaps",
  tag: "Sitemaps",
  summary: "Add a sitemap or feed, or discover the site's sitemaps (processed in the background)",
  scope: "sites:write",
  params: siteParams,
  body: addSitemapBody,
  idempotent: true,
  status: 201,
  audit: { action: "sitemap.added", target: "sitemap" },
  response: z.union([sitemapSchema, discoveredSitemapsSchema]),
  errors: ["duplicate_sitemap"],
});

export const getSitemap = defineOperation({
  operationId: "getSitemap",
  method: "get",
  path: "/v1/sites/{siteId}/sitemaps/{sitemapId}",
  tag: "Sitemaps",
  summary: "Get a sitemap",
  scope: "sites:read",
  params: siteSitemapParams,
  status: 200,
  response: sitemapSchema,
});

export const deleteSitemap = defineOperation({
  operationId: "deleteSitemap",
  method: "delete",
  path: "/v1/sites/{siteId}/sitemaps/{sitemapId}",
  tag: "Sitemaps",
  summary: "Delete a sitemap and its URLs",
  scope: "sites:write",
  params: siteSitemapParams,
  status: 204,
  audit: { action: "sitemap.deleted", target: "sitemap" },
});

export const refreshSitemap = defineOperation({
  operationId: "refreshSitemap",
  method: "post",
  path: "/v1/sites/{siteId}/sitemaps/{sitemapId}/refresh",
  tag: "Sitemaps",
  summary: "Read the sitemap again now (a conditional GET; processed in the background)",
  scope: "sites:write",
  params: siteSitemapParams,
  idempotent: true,
  status: 202,
  audit: { action: "sitemap.refreshed", target: "sitemap" },
  response: sitemapSchema,
});
