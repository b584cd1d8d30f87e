import { sql } from "drizzle-orm";
import { boosts, invitations, memberships, runs, sitemaps, sites } from "@/drizzle/schema";
import type { AccountContext } from "@/lib/context";
import { rowsOf } from "@/lib/db/rows";
import { FIRST_STEPS, type FirstStep, type FirstSteps } from "@/lib/core/first-steps";

type Row = Record<FirstStep, boolean> & { site_id: number | null; boost_id: number | null };

const idOf = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** Which of the first steps the organization has taken, read in one statement. */
export async function firstSteps(ctx: AccountContext): Promise<FirstSteps> {
  const account = ctx.accountId;
  const result = await ctx.db.execute(sql`
    select
      exists(select 1 from ${sites} s where s.account_id = ${account}) as site_added,
      exists(select 1 from ${sites} s where s.account_id = ${account} and s.validated) as ownership_proved,
      exists(select 1 from ${sitemaps} m join ${sites} s on s.id = m.site_id where s.account_id = ${account}) as sitemap_added,
      exists(select 1 from ${boosts} b join ${sites} s on s.id = b.site_id where s.account_id = ${account}) as boost_created,
      exists(select 1 from ${runs} r where r.account_id = ${account}) as first_run,
      (select count(*) from ${memberships} m where m.account_id = ${account}) > 1 or exists(select 1 from ${invitations} i where i.account_id = ${account}) as colleague_invited,
      (select s.id from ${sites} s where s.account_id = ${account} order by s.validated, s.id limit 1) as site_id,
      (select b.id from ${boosts} b join ${sites} s on s.id = b.site_id where s.account_id = ${account} order by b.id limit 1) as boost_id`);
  const [row] = rowsOf<Row>(result);
  const done = Object.fromEntries(FIRST_STEPS.map((step) => [step, Boolean(row?.[step])])) as Record<FirstStep, boolean>;
  return { done, site_id: idOf(row?.site_id), boost_id: idOf(row?.boost_id) };
}
