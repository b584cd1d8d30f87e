import Link from "next/link";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { buttonClass } from "@/components/ui/button";
import { PageProblem } from "@/components/ui/page-problem";
import { currentUser } from "@/lib/accounts/next-auth";
import { type Role, roleAllows, roleRefusalMessage } from "@/lib/core/roles";

/**
 * The page a member opens by its address although their role cannot use it (a new boost for a
 * viewer): the reason, in the API's words, instead of a form whose every answer would be a 403.
 * Undefined when the role reaches `needed`.
 */
export async function roleShortfall(needed: Role, back: { href: string; label: string }): Promise<ReactNode | undefined> {
  const user = await currentUser();
  if (!user) redirect("/signin");
  if (roleAllows(user.role, needed)) return undefined;
  return (
    <PageProblem
      code="403"
      title="Not for your role"
      actions={
        <Link href={back.href} className={buttonClass("secondary")}>
          {back.label}
        </Link>
      }
    >
      {roleRefusalMessage(user.role, needed)}
    </PageProblem>
  );
}
