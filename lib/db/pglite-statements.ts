import { type ExecProtocolResult, type PGlite, parse, protocol, type QueryOptions, type Results, type Transaction, types } from "@electric-sql/pglite";

type BackendMessage = ExecProtocolResult["messages"][number];

type Statement = { name: string; parameterTypes: number[] };
type Query = <T>(text: string, params?: unknown[], options?: QueryOptions) => Promise<Results<T>>;

/** Statements kept prepared at once; past this, the least recently run one is closed. */
const PREPARED_STATEMENTS_MAX = 500;

function concat(messages: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(messages.reduce((length, message) => length + message.length, 0));
  let offset = 0;
  for (const message of messages) {
    joined.set(message, offset);
    offset += message.length;
  }
  return joined;
}

/** What PGlite's own query adds to a database error, so that callers see the same error either way. */
function withQuery(error: unknown, text: string, params: unknown[], options: QueryOptions | undefined): unknown {
  if (error instanceof Error && "code" in error) Object.assign(error, { query: text, params, queryOptions: options });
  return error;
}

type Parser = (value: string, typeId: number) => unknown;

/**
 * What PGlite's parseResults makes of one statement's answer, without what makes it slow: it merges
 * the caller's parsers into its own 300-odd on every statement (drizzle passes some on each).
 */
function resultsOf<T>(messages: BackendMessage[], defaults: Record<number, Parser>, options: QueryOptions | undefined): Results<T> {
  const result: Results<T> = { rows: [], fields: [], affectedRows: 0 };
  let parsers: (Parser | undefined)[] = [];
  for (const message of messages) {
    if (message instanceof protocol.messages.RowDescriptionMessage) {
      result.fields = message.fields.map(({ name, dataTypeID }) => ({ name, dataTypeID }));
      parsers = result.fields.map(({ dataTypeID }) => options?.parsers?.[dataTypeID] ?? defaults[dataTypeID] ?? types.parsers[dataTypeID]);
    } else if (message instanceof protocol.messages.DataRowMessage) {
      const values = message.fields.map((value, i) => (value === null ? null : parsers[i] ? parsers[i](value, result.fields[i]!.dataTypeID) : value));
      result.rows.push((options?.rowMode === "array" ? values : Object.fromEntries(values.map((value, i) => [result.fields[i]!.name, value]))) as T);
    } else if (message instanceof protocol.messages.CommandCompleteMessage) {
      // "SELECT 2", "UPDATE 3", "INSERT 0 5": the count is the last word; "CREATE TABLE" has none.
      const words = message.text.split(" ");
      const count = Number.parseInt(words.at(-1)!, 10);
      result.command = words[0];
      if (["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"].includes(words[0]!)) result.affectedRows = count;
      if (!Number.isNaN(count)) result.rowCount = count;
    }
  }
  return result;
}

/**
 * Runs every statement of the embedded database as a named prepared statement, prepared the first
 * time its text is seen. PGlite's own `query` parses, analyses and plans each statement afresh and
 * talks to the database in six round trips; a prepared one is one round trip, planned once (a
 * generic plan after five runs, PostgreSQL's own rule). That is what postgres.js does on a PostgreSQL
 * server too. Measured in docs/benchmarks.md. Statements in a transaction are prepared the same way.
 */
export function reuseStatements(pglite: PGlite, capacity = PREPARED_STATEMENTS_MAX): void {
  const statements = new Map<string, Statement>(); // in order of last use, the oldest first
  const closing: string[] = []; // forgotten statements, closed by the next prepare's message
  let counter = 0;

  function forget(text: string): boolean {
    const statement = statements.get(text);
    if (statement) closing.push(statement.name);
    return statements.delete(text);
  }

  async function prepare(text: string, options: QueryOptions | undefined): Promise<Statement> {
    const name = `preheat_${++counter}`;
    if (statements.size >= capacity) forget(statements.keys().next().value!);
    const messages = closing.splice(0).map((closed) => protocol.serialize.close({ type: "S", name: closed }));
    messages.push(protocol.serialize.parse({ name, text, types: options?.paramTypes }), protocol.serialize.describe({ type: "S", name }), protocol.serialize.sync());
    const described = await pglite.execProtocol(concat(messages), { syncToFs: false });
    return { name, parameterTypes: parse.parseDescribeStatementResults(described.messages) };
  }

  /** Runs `text` as a prepared statement; the caller holds PGlite's query lock. */
  async function run<T>(text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    try {
      let statement = statements.get(text);
      if (statement) statements.delete(text);
      else statement = await prepare(text, options);
      statements.set(text, statement);
      const { parameterTypes } = statement;
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serialize = options?.serializers?.[parameterTypes[i]!] ?? pglite.serializers[parameterTypes[i]!];
        return serialize ? serialize(value) : String(value);
      });
      const message = concat([protocol.serialize.bind({ statement: statement.name, values }), protocol.serialize.describe({ type: "P" }), protocol.serialize.execute({}), protocol.serialize.sync()]);
      const { messages } = await pglite.execProtocol(message, { syncToFs: !inTransaction });
      return resultsOf<T>(messages, pglite.parsers, options);
    } catch (error) {
      // A table changed under a prepared statement (a migration): prepared afresh on its next run.
      if (error instanceof Error && "code" in error && error.code === "0A000" && forget(text) && !inTransaction) return run(text, params, options, inTransaction);
      throw withQuery(error, text, params, options);
    }
  }

  const query = pglite.query.bind(pglite) as Query;
  pglite.query = (async <T>(text: string, params: unknown[] = [], options?: QueryOptions) => {
    if (options?.blob) return query<T>(text, params, options);
    await pglite._checkReady();
    return pglite._runExclusiveTransaction(() => pglite._runExclusiveQuery(() => run<T>(text, params, options, false)));
  }) as PGlite["query"];

  const transaction = pglite.transaction.bind(pglite);
  pglite.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      const prepared: Query = async <R>(text: string, params: unknown[] = [], options?: QueryOptions) => {
        if (tx.closed) throw new Error("Transaction is closed");
        if (options?.blob) return tx.query<R>(text, params, options);
        return pglite._runExclusiveQuery(() => run<R>(text, params, options, true));
      };
      return callback(new Proxy(tx, { get: (target, property) => (property === "query" ? prepared : Reflect.get(target, property)) }));
    })) as PGlite["transaction"];
}
