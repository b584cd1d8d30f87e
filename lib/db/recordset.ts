import { type AnyColumn, type Placeholder, type SQL, sql } from "drizzle-orm";

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

/**
 * `<numbers>::int[]`, the array as one text parameter (drizzle would write a parameter per element):
 * beside another, for `unnest(a, b) as v(x, y)`, whose plan reads a table through its index where a
 * JSON recordset, counted for a hundred rows, may hash the whole table (docs/benchmarks.md).
 */
export function intArray(numbers: readonly number[]): SQL {
  return sql`${`{${numbers.join(",")}}`}::int[]`;
}

/** `(select … from json_array_elements_text(<json>))`: a list of ids as one parameter, for `in`. */
export function idList(ids: readonly number[]): SQL {
  return sql`(select value::int from json_array_elements_text(${JSON.stringify(ids)}::json))`;
}

/**
 * `<column> = any(<the ids>)`, the ids as one JSON parameter: one statement text whatever their
 * number. drizzle's `inArray` writes a parameter per id, so each count of ids is a statement of its
 * own, prepared and planned afresh: a list of 1 to 300 ids took 1.18 ms a statement that way against
 * 0.39 ms as one parameter, on the embedded database. As an array (`= any`) rather than `in (select …)`:
 * a prepared statement's generic plan counts a hundred rows for the JSON list, and below a few
 * thousand rows it read the whole table rather than its index (a table of 3,000 runs: 0.39 ms a
 * read against 0.11 ms); for an array it counts ten, and takes the index (docs/benchmarks.md).
 */
export function inIds(column: AnyColumn | SQL, ids: readonly number[]): SQL {
  return anyOfJsonIds(column, JSON.stringify(ids));
}

/** `inIds` in a statement prepared once (lib/db/prepared.ts): the list is its placeholder `name`, given as `JSON.stringify(ids)`. */
export function inIdsPlaceholder(column: AnyColumn | SQL, name: string): SQL {
  return anyOfJsonIds(column, sql.placeholder(name));
}

function anyOfJsonIds(column: AnyColumn | SQL, json: string | Placeholder): SQL {
  return sql`${column} = any(array(select value::int from json_array_elements_text(${json}::json)))`;
}
