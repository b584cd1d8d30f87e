import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoadsTogether } from "@/components/dashboard/loads-together";
import { TeamView } from "@/components/team/team-view";
import { currentUser } from "@/lib/accounts/next-auth";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage() {
  const user = await currentUser();
  if (!user) redirect("/signin");
  return (
    <LoadsTogether>
      <TeamView me={user.email} />
    </LoadsTogether>
  );
}
