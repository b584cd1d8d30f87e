import postgres from "postgres";

/**
 * BENCH_PG_STATEMENTS=1 (`npm run bench -- multisite-postgres`): the PostgreSQL server's statements
 * that took the most time in a window of the case, from pg_stat_statements (the bench's throw-away
 * server loads it then). Execution time only: a statement's parsing, binding and round trip come on
 * top, and rows waiting on another's lock count as executing.
 */
export async function statementWindows(url: string | undefined) {
  if (process.env.BENCH_PG_STATEMENTS !== "1" || !url) return { close: async () => {}, print: async (_label: string) => {} };
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  await sql`create extension if not exists pg_stat_statements`;
  await sql`select pg_stat_statements_reset()`;
  return {
    close: () => sql.end({ timeout: 5 }),
    /** Prints the window since the previous one (or the start), then starts the next. */
    print: async (label: string) => {
      const [total] = await sql<{ ms: number; calls: number }[]>`select coalesce(sum(total_exec_time), 0)::float8 as ms, coalesce(sum(calls), 0)::int as calls from pg_stat_statements`;
      const top = await sql<{ calls: number; ms: number; rows: number; query: string }[]>`
        select calls::int, total_exec_time::float8 as ms, rows::int, left(regexp_replace(query, '\\s+', ' ', 'g'), 100) as query
        from pg_stat_statements order by total_exec_time desc limit 12`;
      console.log(`  PostgreSQL's statements ${label}: ${total!.calls.toLocaleString("en")} executed in ${Math.round(total!.ms).toLocaleString("en")} ms; the longest in all:`);
      for (const s of top)
        console.log(`    ${String(s.calls).padStart(6)} × ${(s.ms / s.calls).toFixed(3).padStart(7)} ms = ${s.ms.toFixed(0).padStart(5)} ms, ${String(s.rows).padStart(6)} rows: ${s.query}`);
      await sql`select pg_stat_statements_reset()`;
    },
  };
}
