"use client";

import { useQuery } from "@tanstack/react-query";
import { api } from "@/components/dashboard/api";
import type { Site } from "@/components/dashboard/types";
import type { Crumb } from "@/components/ui/breadcrumb";

/** A site's domain (shared with the site page's cache), "Site" until it loads. */
function SiteDomain({ siteId }: { siteId: number }) {
  const site = useQuery({ queryKey: ["sites", siteId], queryFn: () => api<Site>(`/sites/${siteId}`) });
  return <>{site.data?.domain ?? "Site"}</>;
}

/** The breadcrumb's link to a site, named by its domain once it is read. */
export function siteCrumb(siteId: number): Crumb {
  return { href: `/sites/${siteId}`, label: <SiteDomain siteId={siteId} /> };
}
