import { type AnyColumn, type SQL, sql } from "drizzle-orm";

/**
 * `json_to_recordset(<json>) as v(<columns>)`: many rows handed to one statement as a single JSON
 * parameter. A VALUES list of a thousand rows would be thousands of parameters, each one built,
 * bound and parsed; the recording tick of a worker holding a thousand runs was spending its time there.
 * Plain `json`, not `jsonb`: the text is read once, where jsonb would first build its binary form
 * (a run's result rows went in 14 % faster).
 */
export function recordset(json: string, columns: string): SQL {
  return sql`json_to_recordset(${json}::json) as v(${sql.raw(columns)})`;
}

/** `(select … from json_array_elements_text(<json>))`: a list of ids as one parameter, for `in`. */
export function idList(ids: readonly number[]): SQL {
  return sql`(select value::int from json_array_elements_text(${JSON.stringify(ids)}::json))`;
}

/**
 * `<column> in <idList>`: one statement text whatever the number of ids. drizzle's `inArray` writes a
 * parameter per id, so each count of ids is a statement of its own, prepared and planned afresh: a
 * list of 1 to 300 ids took 1.18 ms a statement that way against 0.39 ms as one parameter, on the
 * embedded database (docs/benchmarks.md).
 */
export function inIds(column: AnyColumn, ids: readonly number[]): SQL {
  return sql`${column} in ${idList(ids)}`;
}

/** `inIds` in a statement prepared once (lib/db/prepared.ts): the list is its placeholder `name`, given as `JSON.stringify(ids)`. */
export function inIdsPlaceholder(column: AnyColumn, name: string): SQL {
  return sql`${column} in (select value::int from json_array_elements_text(${sql.placeholder(name)}::json))`;
}
