import type { Readable } from "node:stream";
import Papa from "papaparse";
import { SourceFormatError } from "@/lib/sources/errors";
import { SAMPLE_ROWS, urlColumnOf } from "./csv-url-column";
import { decodedText } from "./encoding";

/** Longest cell read. URLs are at most 2,048 characters: this cap only bounds memory. */
export const MAX_CSV_CELL_CHARS = 8192;
/** Longest row read, so that a row of many small cells is bounded too. */
export const MAX_CSV_ROW_CHARS = 64 * 1024;

const DELIMITERS = [",", ";", "\t", "|"];
/** Bytes decoded and scanned at a time: bounds the work done between two looks at the event loop. */
const SLICE_BYTES = 64 * 1024;
/** Text the separator and line break are guessed from (papaparse looks at its first 10 rows). */
const SAMPLE_CHARS = 64 * 1024;
/** Longest stretch of reading before other callbacks get a turn. */
const BUSY_MS = 10;

const QUOTE = 0x22;
const LF = 0x0a;

export type CsvUrls = { urls: string[]; rows: number };

type Dialect = { delimiter: string; newline: "\n" | "\r" | "\r\n" };

/** 500000 → "500,000"; not toLocaleString, whose first call loads ICU data for some 10 ms. */
const count = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ",");

/**
 * Reads URLs from a CSV file: the column lib/sources/csv-url-column.ts finds from the first rows (a `url`,
 * `loc` or `link` column of a header row, or the column of URLs), below a header row if there is one. `,` `;` tab and `|` separators, quoted fields and a BOM are understood.
 * The file is read a slice at a time and only the URLs are kept; an overlong cell or row ends the read
 * as soon as it is seen, and the event loop gets a turn at least every BUSY_MS.
 */
export async function readCsvUrls(stream: Readable, maxRows: number, options: { charset?: string | null } = {}): Promise<CsvUrls> {
  const urls = new UrlCollector(maxRows);
  const giveWayWhenBusy = eventLoopTurns();
  let rows: CsvRowReader | undefined;
  for await (const text of textSlices(stream, options.charset ?? null)) {
    rows ??= new CsvRowReader(guessDialect(text), (cells) => urls.add(cells));
    rows.push(text);
    await giveWayWhenBusy();
  }
  rows?.end();
  urls.end();
  return { urls: urls.urls, rows: urls.rows };
}

/**
 * The stream's text, decoded in its encoding (lib/sources/encoding.ts: a BOM, else the Content-Type charset, else UTF-8), in
 * slices of SLICE_BYTES at most whatever the size of the chunks. The first slice holds SAMPLE_CHARS (or the
 * whole file) to guess the dialect from; no slice ends with a CR, which may be the first half of a CRLF.
 */
async function* textSlices(stream: Readable, charset: string | null): AsyncGenerator<string> {
  let text = "";
  let minLength = SAMPLE_CHARS;
  for await (const decoded of decodedText(stream, charset)) {
    for (let start = 0; start < decoded.length; start += SLICE_BYTES) {
      text += decoded.slice(start, start + SLICE_BYTES);
      const cut = text.endsWith("\r") ? text.length - 1 : text.length;
      if (cut < minLength) continue;
      yield text.slice(0, cut);
      text = text.slice(cut);
      minLength = 1;
    }
  }
  if (text) yield text;
}

/** Papaparse guesses the separator and the line break, from the file's first rows as when it read the stream itself. */
function guessDialect(sample: string): Dialect {
  const { meta } = Papa.parse<string[]>(sample, { delimitersToGuess: DELIMITERS, skipEmptyLines: "greedy", preview: 10 });
  return { delimiter: meta.delimiter, newline: meta.linebreak as Dialect["newline"] };
}

/** Returns a function that lets timers and I/O run when BUSY_MS have gone by since they last could. */
function eventLoopTurns(): () => Promise<void> {
  let since = performance.now();
  return async () => {
    if (performance.now() - since < BUSY_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    since = performance.now();
  };
}

/**
 * Hands papaparse whole rows only, one slice's worth at a time: fed a stream, papaparse keeps an unfinished
 * row and parses it again with every chunk, so one huge quoted cell costs unbounded memory and time.
 */
class CsvRowReader {
  private readonly scanner: RowScanner;
  /** The text of the row that has not ended yet (RowScanner caps its length). */
  private unfinished = "";

  constructor(
    private readonly dialect: Dialect,
    private readonly onRow: (cells: string[]) => void,
  ) {
    this.scanner = new RowScanner(dialect);
  }

  push(text: string): void {
    const end = this.scanner.scan(text);
    if (end < 0) {
      this.unfinished += text;
      return;
    }
    this.parse(this.unfinished + text.slice(0, end));
    this.unfinished = text.slice(end);
  }

  end(): void {
    this.parse(this.unfinished);
    this.unfinished = "";
  }

  private parse(rows: string): void {
    if (!rows) return;
    for (const cells of Papa.parse<string[]>(rows, { ...this.dialect, skipEmptyLines: "greedy" }).data) this.onRow(cells);
  }
}

type ScanState = "fieldStart" | "unquoted" | "quoted" | "quote" | "quoteSpaces";

/**
 * Follows the text as papaparse splits it (RFC 4180 quotes and `""` escapes, plus papaparse's leniency:
 * spaces may follow a closing quote, and a quote followed by anything else is part of the field), to know
 * where rows end and to refuse an overlong cell or row the moment it gets too long.
 */
class RowScanner {
  private state: ScanState = "fieldStart";
  private cellChars = 0;
  private rowChars = 0;
  private row = 1;
  private column = 1;
  private readonly delimiter: number;
  private readonly newline: number;
  private readonly crlf: boolean;

  constructor({ delimiter, newline }: Dialect) {
    this.delimiter = delimiter.charCodeAt(0);
    this.newline = newline.charCodeAt(0);
    this.crlf = newline === "\r\n";
  }

  /** Returns the index just past the last row end in `text`, or -1 when no row ends in it. */
  scan(text: string): number {
    let rowEnd = -1;
    for (let i = 0; i < text.length; i++) {
      const run = this.plainTextEnd(text, i);
      this.grow(run - i, true);
      i = run;
      if (i === text.length) break;
      const c = text.charCodeAt(i);
      const quoted = this.state === "quoted";
      if (!quoted && c === this.newline && (!this.crlf || text.charCodeAt(i + 1) === LF)) {
        if (this.crlf) i++;
        rowEnd = i + 1;
        this.startRow();
      } else if (!quoted && c === this.delimiter) {
        this.grow(1, false);
        this.startCell();
      } else {
        this.grow(1, true);
        this.state = stateAfter(this.state, c);
      }
    }
    return rowEnd;
  }

  /**
   * Where the cell text from `i` on stops mattering to the state: the next quote inside quotes, the next
   * separator or line break outside. Skipping it in one go keeps the scan as fast as papaparse's.
   */
  private plainTextEnd(text: string, i: number): number {
    if (this.state === "quoted") {
      const quote = text.indexOf('"', i);
      return quote < 0 ? text.length : quote;
    }
    if (this.state !== "unquoted") return i;
    let end = i;
    for (; end < text.length; end++) {
      const c = text.charCodeAt(end);
      if (c === this.delimiter || c === this.newline) break;
    }
    return end;
  }

  /** Counts `n` more characters of the row, and of the cell unless they are a separator; throws past a cap. */
  private grow(n: number, inCell: boolean): void {
    this.rowChars += n;
    if (inCell) this.cellChars += n;
    // The cap crossed first, had the characters been counted one by one, is the one overshot the most.
    const rowOver = this.rowChars - MAX_CSV_ROW_CHARS;
    const cellOver = this.cellChars - MAX_CSV_CELL_CHARS;
    if (rowOver > 0 && rowOver >= cellOver) throw this.tooLong("row", MAX_CSV_ROW_CHARS);
    if (cellOver > 0) throw this.tooLong("cell", MAX_CSV_CELL_CHARS);
  }

  private startCell(): void {
    this.state = "fieldStart";
    this.cellChars = 0;
    this.column++;
  }

  private startRow(): void {
    this.startCell();
    this.rowChars = 0;
    this.column = 1;
    this.row++;
  }

  private tooLong(what: "cell" | "row", limit: number): SourceFormatError {
    const where = what === "cell" ? `row ${count(this.row)}, column ${count(this.column)}` : `row ${count(this.row)}`;
    return new SourceFormatError(`a CSV file with a ${what} longer than ${count(limit)} characters (the limit): ${where}`);
  }
}

/** The scanner's state after a character that is neither a line break nor, outside quotes, a separator. */
function stateAfter(state: ScanState, c: number): ScanState {
  switch (state) {
    case "fieldStart":
      return c === QUOTE ? "quoted" : "unquoted";
    case "unquoted":
      return "unquoted";
    case "quoted":
      return c === QUOTE ? "quote" : "quoted";
    case "quote": // `""` is an escaped quote
      return c === QUOTE ? "quoted" : isSpace(c) ? "quoteSpaces" : "quoted";
    case "quoteSpaces": // after `"  `, a quote may close the field again
      return c === QUOTE ? "quote" : isSpace(c) ? "quoteSpaces" : "quoted";
  }
}

/** White space as papaparse's `trim()` sees it between a closing quote and the separator. */
function isSpace(c: number): boolean {
  return c === 0x20 || /\s/.test(String.fromCharCode(c));
}

/** Counts the rows and keeps the URL of each, once the first rows have said which column holds them. */
class UrlCollector {
  readonly urls: string[] = [];
  rows = 0;
  private column = 0;
  /** The first rows, held until the URL column is chosen from them; undefined once it is. */
  private sample: string[][] | undefined = [];

  constructor(private readonly maxRows: number) {}

  add(cells: string[]): void {
    if (!this.sample) this.take(cells);
    else if (this.sample.push(cells) >= SAMPLE_ROWS) this.chooseColumn();
  }

  /** A file shorter than the sample is judged on the rows it has. */
  end(): void {
    if (this.sample?.length) this.chooseColumn();
  }

  private chooseColumn(): void {
    const sample = this.sample!;
    this.sample = undefined;
    const found = urlColumnOf(sample);
    if (!found) throw new SourceFormatError(`a CSV file with neither a url, loc or link column nor a column of URLs in its first ${SAMPLE_ROWS} rows`);
    this.column = found.column;
    for (const cells of found.header ? sample.slice(1) : sample) this.take(cells);
  }

  private take(cells: string[]): void {
    if (++this.rows > this.maxRows) throw new SourceFormatError(`a CSV file with more than ${count(this.maxRows)} rows (the limit)`);
    const value = cells[this.column]?.trim();
    if (value) this.urls.push(detach(value));
  }
}

/** A copy of a substring: V8's substrings keep their whole parent (a parsed batch) in memory. */
function detach(value: string): string {
  return ` ${value}`.slice(1);
}
