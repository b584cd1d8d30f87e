import type { Metadata } from "next";
import { OrganizationsView } from "@/components/operator/organizations-view";

export const metadata: Metadata = { title: "Organizations · Operator" };

export default function Page() {
  return <OrganizationsView />;
}
