"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { api } from "@/components/dashboard/api";
import type { Site } from "@/components/dashboard/types";

/** A link to a site named by its domain (shared with the site page's cache), "Site" until it loads. */
export function SiteLink({ siteId }: { siteId: number }) {
  const site = useQuery({ queryKey: ["sites", siteId], queryFn: () => api<Site>(`/sites/${siteId}`) });
  return (
    <Link href={`/sites/${siteId}`} className="hover:underline">
      {site.data?.domain ?? "Site"}
    </Link>
  );
}
