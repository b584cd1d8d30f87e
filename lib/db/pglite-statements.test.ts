import { PGlite, protocol } from "@electric-sql/pglite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { reuseStatements } from "./pglite-statements";

let pglite: PGlite;

beforeEach(async () => {
  pglite = await PGlite.create();
  await pglite.exec("create table items (id serial primary key, name text not null unique, tags text[], data jsonb, at timestamptz)");
});

afterEach(async () => {
  await pglite.close();
});

const prepared = async () => (await pglite.query<{ name: string }>("select name from pg_prepared_statements order by name")).rows.map((row) => row.name);

describe("reuseStatements (the embedded database's prepared statements)", () => {
  it("prepares a statement once and runs it again with other values, which round-trip like PGlite's own query", async () => {
    reuseStatements(pglite);
    const insert = "insert into items (name, tags, data, at) values ($1, $2, $3, $4) returning *";
    const at = new Date("2026-11-24T10:00:00Z");
    const first = await pglite.query<{ id: number; tags: string[]; data: unknown; at: Date }>(insert, ["a", ["x", "y"], { deep: [1, "two"] }, at]);
    expect(first.rows[0]).toMatchObject({ id: 1, tags: ["x", "y"], data: { deep: [1, "two"] }, at });
    const second = await pglite.query<{ id: number; tags: string[] | null }>(insert, ["b", null, null, null]);
    expect(second.rows[0]).toMatchObject({ id: 2, tags: null });
    expect(second.affectedRows).toBe(1);
    const arrays = await pglite.query<unknown[]>("select id, name from items where id = $1", [2], { rowMode: "array" });
    expect(arrays.rows).toEqual([[2, "b"]]);
    // The insert, the select and the look at pg_prepared_statements itself: one statement each.
    expect(await prepared()).toHaveLength(3);
  });

  it("reads every kind of answer as PGlite's own query does: nulls, text beyond ASCII, types, many rows, no rows, counts", async () => {
    await pglite.query("insert into items (name, tags, data, at) values ($1, $2, $3, $4), ($5, null, null, null)", [
      "café ☕ — 東京 🚀",
      ["a,b", 'quote"d', ""],
      { nested: { list: [1, 2.5, null, "ü"] }, empty: {} },
      new Date("2026-11-26T17:00:00.123Z"),
      "plain",
    ]);
    const statements: [string, unknown[], { rowMode?: "array" }?][] = [
      ["select * from items order by id", []],
      ["select id, name, tags, data, at from items order by id", [], { rowMode: "array" }],
      ["select 1::int2 as small, 2::int4 as int, 3::int8 as big, 1.5::float8 as float, 2.25::numeric as numeric, true as yes, null::text as nothing, 'x'::bytea as bytes", []],
      ["select * from items where id < 0", []],
      ["select g, repeat('é', g) as text from generate_series(1, 2000) g", []],
      ["update items set name = name || $1 where id > 0", ["!"]],
      ["delete from items where name = $1", ["nobody"]],
    ];
    const own = [];
    for (const [text, params, options] of statements) own.push(await pglite.query(text, params, options));
    await pglite.query("update items set name = left(name, -1)");
    reuseStatements(pglite);
    for (const [index, [text, params, options]] of statements.entries()) {
      const answer = await pglite.query(text, params, options);
      expect({ rows: answer.rows, fields: answer.fields, affectedRows: answer.affectedRows }).toEqual({
        rows: own[index]!.rows,
        fields: own[index]!.fields,
        affectedRows: own[index]!.affectedRows,
      });
    }
  });

  it("leaves PGlite's own execProtocol answering after a statement, errors included", async () => {
    reuseStatements(pglite);
    await pglite.query("select 1");
    const { messages, data } = await pglite.execProtocol(protocol.serialize.query("select 42 as answer"));
    const row = messages.find((message) => message instanceof protocol.messages.DataRowMessage);
    expect(row?.fields).toEqual(["42"]);
    expect(data.length).toBeGreaterThan(0);
    await expect(pglite.execProtocol(protocol.serialize.query("selec 1"))).rejects.toMatchObject({ code: "42601" });
    expect((await pglite.execProtocol(protocol.serialize.query("selec 1"), { throwOnError: false })).messages.some((message) => message instanceof protocol.messages.DatabaseError)).toBe(true);
    expect((await pglite.query("select 2 as two")).rows).toEqual([{ two: 2 }]);
  });

  it("throws the database's error, with its code and query, and goes on", async () => {
    reuseStatements(pglite);
    await pglite.query("insert into items (name) values ($1)", ["a"]);
    const duplicate = await pglite.query("insert into items (name) values ($1)", ["a"]).catch((error) => error);
    expect(duplicate).toMatchObject({ code: "23505", query: "insert into items (name) values ($1)", params: ["a"] });
    const syntax = await pglite.query("selec 1").catch((error) => error);
    expect(syntax).toMatchObject({ code: "42601" });
    expect((await pglite.query("select count(*)::int as n from items")).rows).toEqual([{ n: 1 }]);
  });

  it("keeps at most `capacity` statements, closing the least recently run one", async () => {
    reuseStatements(pglite, 2);
    await pglite.query("select 1");
    await pglite.query("select 2");
    await pglite.query("select 1");
    await pglite.query("select 3"); // closes "select 2"
    const { rows } = await pglite.query<{ statement: string }>("select statement from pg_prepared_statements order by statement");
    expect(rows.map((row) => row.statement)).toEqual(["select 3", "select statement from pg_prepared_statements order by statement"]);
  });

  it("prepares the statements of a transaction too; a rolled-back transaction leaves nothing, a closed one refuses", async () => {
    reuseStatements(pglite);
    let kept: { query: (text: string, params?: unknown[]) => Promise<unknown> } | undefined;
    await pglite
      .transaction(async (tx) => {
        await tx.query("insert into items (name) values ($1)", ["in a rolled-back transaction"]);
        throw new Error("undo");
      })
      .catch(() => {});
    await pglite.transaction(async (tx) => {
      kept = tx;
      await tx.query("insert into items (name) values ($1)", ["kept"]);
    });
    expect((await pglite.query("select name from items")).rows).toEqual([{ name: "kept" }]);
    await expect(kept!.query("select 1")).rejects.toThrow("Transaction is closed");
  });

  it("prepares a statement afresh when a migration changed its table, and closes the old one", async () => {
    reuseStatements(pglite);
    await pglite.query("insert into items (name) values ($1)", ["a"]);
    const select = "select * from items";
    expect((await pglite.query(select)).rows).toHaveLength(1);
    await pglite.exec("alter table items add column added int default 7");
    expect((await pglite.query<{ added: number }>(select)).rows[0]!.added).toBe(7);
    // The statement prepared before the change is closed, not left behind.
    const { rows } = await pglite.query<{ n: number }>("select count(*)::int as n from pg_prepared_statements where statement = $1", [select]);
    expect(rows).toEqual([{ n: 1 }]);
  });
});
