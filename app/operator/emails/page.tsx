import type { Metadata } from "next";
import { EmailsView } from "@/components/operator/emails-view";

export const metadata: Metadata = { title: "E-mails · Operator" };

export default function Page() {
  return <EmailsView />;
}
