import { type SQL, sql } from "drizzle-orm";

/**
 * `jsonb_to_recordset(<json>) as v(<columns>)`: many rows handed to one statement as a single JSON
 * parameter. A VALUES list of a thousand rows would be thousands of parameters, each one built,
 * bound and parsed; the recording tick of a worker holding a thousand runs was spending its time there.
 */
export function recordset(json: string, columns: string): SQL {
  return sql`jsonb_to_recordset(${json}::jsonb) as v(${sql.raw(columns)})`;
}

/** `(select … from jsonb_array_elements_text(<json>))`: a list of ids as one parameter, for `in`. */
export function idList(ids: readonly number[]): SQL {
  return sql`(select value::int from jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`;
}
