import type { Readable } from "node:stream";
import Papa from "papaparse";
import { SourceFormatError } from "./xml-urls";

const URL_COLUMNS = ["url", "loc", "link"];

export type CsvUrls = { urls: string[]; rows: number };

function looksLikeUrl(value: string | undefined): boolean {
  return /^https?:\/\//i.test((value ?? "").trim());
}

/**
 * Reads URLs from a CSV file: the `url`, `loc` or `link` column of a header row, or the first column
 * when the file has no header. `,` `;` and tab separators, quoted fields and a BOM are understood.
 */
export async function readCsvUrls(stream: Readable, maxRows: number): Promise<CsvUrls> {
  const urls: string[] = [];
  let column: number | undefined;
  let rows = 0;
  let failure: Error | undefined;
  await new Promise<void>((resolve, reject) => {
    Papa.parse<string[]>(stream as unknown as File, {
      delimitersToGuess: [",", ";", "\t", "|"],
      skipEmptyLines: "greedy",
      step(result, parser) {
        const cells = result.data.map((cell) => String(cell ?? "").replace(/^\uFEFF/, "").trim());
        if (column === undefined) {
          const header = cells.findIndex((cell) => URL_COLUMNS.includes(cell.toLowerCase()));
          if (header >= 0) {
            column = header;
            return;
          }
          if (!looksLikeUrl(cells[0])) {
            failure = new SourceFormatError("the CSV has no url, loc or link column, and its first column does not hold URLs");
            parser.abort();
            return;
          }
          column = 0;
        }
        rows++;
        if (rows > maxRows) {
          failure = new SourceFormatError(`the CSV has more than ${maxRows} rows`);
          parser.abort();
          return;
        }
        const value = cells[column];
        if (value) urls.push(value);
      },
      complete: () => resolve(),
      error: (error: Error) => reject(error),
    });
  });
  if (failure) throw failure;
  return { urls, rows };
}
