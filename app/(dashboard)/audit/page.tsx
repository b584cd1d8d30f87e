import type { Metadata } from "next";
import { AuditView } from "@/components/audit/audit-view";
import { setting } from "@/lib/config";

export const metadata: Metadata = { title: "Audit log" };
// The retention it states is the operator's, read at request time, not baked in at build time.
export const dynamic = "force-dynamic";

export default function AuditPage() {
  return <AuditView retentionDays={setting("PREHEAT_AUDIT_RETENTION_DAYS")} />;
}
