import type { Metadata } from "next";
import { PageProblem } from "@/components/ui/page-problem";

export const metadata: Metadata = { title: "Page not found" };

export default function NotFound() {
  return (
    <PageProblem code="404" title="This page does not exist">
      <p>The address may be mistyped, or what it showed was deleted, or belongs to an organization you are not working in now (switch organizations in the header).</p>
    </PageProblem>
  );
}
