import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { OrganizationView } from "@/components/operator/organization-view";

export const metadata: Metadata = { title: "Organization · Operator" };

export default async function Page({ params }: { params: Promise<{ organizationId: string }> }) {
  const { organizationId } = await params;
  if (!/^[1-9]\d{0,9}$/.test(organizationId)) notFound();
  return <OrganizationView id={Number(organizationId)} />;
}
