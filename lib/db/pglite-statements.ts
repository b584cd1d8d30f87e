import { type ExecProtocolResult, type PGlite, parse, protocol, type QueryOptions, type Results, type Transaction, types } from "@electric-sql/pglite";

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

// The backend messages an answer is made of (PostgreSQL's protocol, chapter 55.7), by their first byte.
const ROW_DESCRIPTION = 0x54; // T
const DATA_ROW = 0x44; // D
const COMMAND_COMPLETE = 0x43; // C
const ERROR_RESPONSE = 0x45; // E
const NOTIFICATION_RESPONSE = 0x41; // A

type Notified = (channel: string, payload: string) => void;
type Listener = (payload: string) => void;
/** Listeners of the answers this module reads itself (PGlite calls its own for the answers it reads). */
const listenersByDatabase = new WeakMap<PGlite, Map<string, Set<Listener>>>();

function notifiedOf(pglite: PGlite): Notified {
  return (channel, payload) => {
    for (const listener of listenersByDatabase.get(pglite)?.get(channel) ?? []) listener(payload);
  };
}

/**
 * LISTEN on `channel`: `onNotify` gets each NOTIFY's payload, read from the answer to the statement that
 * committed it, before that statement's caller resumes (PGlite's own answers call it in a microtask
 * queued as they are read, this module's at once). So what a process keeps about the embedded
 * database can be dropped before anything could read the change. Answers how to stop listening.
 */
export async function listenEmbedded(pglite: PGlite, channel: string, onNotify: Listener): Promise<() => Promise<void>> {
  let byChannel = listenersByDatabase.get(pglite);
  if (!byChannel) listenersByDatabase.set(pglite, (byChannel = new Map()));
  let listeners = byChannel.get(channel);
  if (!listeners) byChannel.set(channel, (listeners = new Set()));
  listeners.add(onNotify);
  try {
    const unlisten = await pglite.listen(channel, onNotify);
    return async () => {
      listeners.delete(onNotify);
      await unlisten();
    };
  } catch (error) {
    listeners.delete(onNotify);
    throw error;
  }
}

/**
 * The bytes the database wrote for `message`, copied: the chunks are views of its memory, which its
 * next statement overwrites.
 */
async function rawAnswer(pglite: PGlite, message: Uint8Array, syncToFs: boolean | undefined): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pglite.execProtocolRawStream(message, { syncToFs, onRawData: (chunk) => chunks.push(Buffer.from(chunk)) });
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
}

/** A NUL-terminated string at `offset`, and where the next field starts. */
function cstring(data: Buffer, offset: number): [string, number] {
  const end = data.indexOf(0, offset);
  return [data.toString("utf8", offset, end), end + 1];
}

/**
 * One statement's answer, read straight from the bytes PGlite's database wrote, as PGlite's own
 * query would return it. PGlite's parser copies every field of every row into an ArrayBuffer of its
 * own before decoding it, and builds a message object for each; on the API's reads PGlite's
 * JavaScript, most of it that parsing, took more of the thread than the statements' execution
 * (docs/benchmarks.md). An error is read by PGlite's own
 * parser, so that callers get the same DatabaseError either way. The caller's parsers are looked up
 * once per answer, not merged into PGlite's 300-odd on every statement as its parseResults does.
 */
function readAnswer<T>(data: Buffer, defaults: Record<number, Parser>, options: QueryOptions | undefined, notified: Notified): Results<T> {
  const result: Results<T> = { rows: [], fields: [], affectedRows: 0 };
  const arrays = options?.rowMode === "array";
  let names: string[] = [];
  let parsers: (Parser | undefined)[] = [];
  let typeIds: number[] = [];
  for (let offset = 0; offset < data.length; ) {
    const type = data[offset]!;
    const end = offset + 1 + data.readInt32BE(offset + 1);
    let at = offset + 5;
    if (type === DATA_ROW) {
      const count = data.readInt16BE(at);
      at += 2;
      const values: unknown[] = new Array(count);
      for (let i = 0; i < count; i++) {
        const length = data.readInt32BE(at);
        at += 4;
        if (length < 0) {
          values[i] = null;
          continue;
        }
        const text = data.toString("utf8", at, at + length);
        at += length;
        const parse = parsers[i];
        values[i] = parse ? parse(text, typeIds[i]!) : text;
      }
      if (arrays) result.rows.push(values as T);
      else {
        const row: Record<string, unknown> = {};
        for (let i = 0; i < count; i++) row[names[i]!] = values[i];
        result.rows.push(row as T);
      }
    } else if (type === ROW_DESCRIPTION) {
      const count = data.readInt16BE(at);
      at += 2;
      result.fields = [];
      for (let i = 0; i < count; i++) {
        const [name, next] = cstring(data, at);
        // table oid (4), column number (2), then the type's oid (4), size (2), modifier (4) and format (2)
        const dataTypeID = data.readInt32BE(next + 6);
        at = next + 18;
        result.fields.push({ name, dataTypeID });
      }
      names = result.fields.map((field) => field.name);
      typeIds = result.fields.map((field) => field.dataTypeID);
      parsers = typeIds.map((id) => options?.parsers?.[id] ?? defaults[id] ?? types.parsers[id]);
    } else if (type === COMMAND_COMPLETE) {
      // "SELECT 2", "UPDATE 3", "INSERT 0 5": the count is the last word; "CREATE TABLE" has none.
      const words = cstring(data, at)[0].split(" ");
      const count = Number.parseInt(words.at(-1)!, 10);
      result.command = words[0];
      if (["INSERT", "UPDATE", "DELETE", "COPY", "MERGE"].includes(words[0]!)) result.affectedRows = count;
      if (!Number.isNaN(count)) result.rowCount = count;
    } else if (type === NOTIFICATION_RESPONSE) {
      // the notifying process's id (4), then the channel and the payload
      const [channel, next] = cstring(data, at + 4);
      notified(channel, cstring(data, next)[0]);
    } else if (type === ERROR_RESPONSE) {
      let error: unknown;
      new protocol.Parser().parse(data.subarray(offset, end), (message) => (error = message));
      throw error;
    }
    offset = end;
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
  const notified = notifiedOf(pglite);

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
    const described = await pglite.execProtocolStream(concat(messages), { syncToFs: false });
    return { name, parameterTypes: parse.parseDescribeStatementResults(described) };
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
      return readAnswer<T>(await rawAnswer(pglite, message, !inTransaction), pglite.parsers, options, notified);
    } catch (error) {
      // A table changed under a prepared statement (a migration): prepared afresh on its next run.
      if (error instanceof Error && "code" in error && error.code === "0A000" && forget(text) && !inTransaction) return run(text, params, options, inTransaction);
      throw withQuery(error, text, params, options);
    }
  }

  // PGlite's execProtocol uses its default output handler, which it expects in place, but
  // execProtocolRawStream (run above) leaves its own there when it returns: execProtocol then
  // answered nothing. It reads the raw stream too, which sets the handler every time. (PGlite's
  // execProtocolStream, which its own query and exec use, sets its handler itself.)
  pglite.execProtocol = async (message, { syncToFs, throwOnError = true, onNotice } = {}) => {
    const data = await rawAnswer(pglite, message, syncToFs);
    const messages: ExecProtocolResult["messages"] = [];
    let error: unknown;
    // As PGlite's own: when it throws, the first error ends what is kept, and is thrown once the answer is read.
    new protocol.Parser().parse(data, (received) => {
      if (error) return;
      if (received instanceof protocol.messages.DatabaseError) error = throwOnError ? received : undefined;
      else if (received instanceof protocol.messages.NoticeMessage) onNotice?.(received);
      else if (received instanceof protocol.messages.NotificationResponseMessage) notified(received.channel, received.payload);
      messages.push(received);
    });
    if (throwOnError && error) throw error;
    return { messages, data };
  };

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
