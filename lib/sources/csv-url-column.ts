/**
 * Which column of a CSV file holds its URLs, and whether its first row is a header, judged from its
 * first rows together: a first row alone cannot tell a header from a row whose URL cell is empty.
 *
 * 1. A first row that names a `url`, `loc` or `link` column (any case) is a header, and that column holds the URLs.
 * 2. Otherwise the URL column is the one in which the most of the first SAMPLE_ROWS rows hold an http(s) URL,
 *    the leftmost on a tie.
 * 3. The first row is a header when its cell in that column is not a URL.
 * 4. The file is refused unless at least half of the sampled rows below a header (or all sampled rows, without
 *    one) hold a URL in that column.
 *
 * docs/guide/site-owners/sources.md states the same rule.
 */

/** As many rows as papaparse reads to guess the separator: enough to see past an odd first row. */
export const SAMPLE_ROWS = 10;

const URL_COLUMNS = ["url", "loc", "link"];

export type UrlColumn = { column: number; header: boolean };

function looksLikeUrl(value: string | undefined): boolean {
  return /^https?:\/\//i.test((value ?? "").trim());
}

function namedColumn(firstRow: string[]): number | undefined {
  const column = firstRow.findIndex((cell) => URL_COLUMNS.includes(cell.trim().toLowerCase()));
  return column < 0 ? undefined : column;
}

/** The column holding a URL in the most rows (the leftmost on a tie), and how many; undefined when no row holds one. */
function mostUrlsColumn(rows: string[][]): { column: number; urls: number } | undefined {
  const counts: number[] = [];
  for (const row of rows) {
    row.forEach((cell, column) => {
      if (looksLikeUrl(cell)) counts[column] = (counts[column] ?? 0) + 1;
    });
  }
  let best: { column: number; urls: number } | undefined;
  counts.forEach((urls, column) => {
    if (urls > (best?.urls ?? 0)) best = { column, urls };
  });
  return best;
}

/** `sample`: the file's first rows (SAMPLE_ROWS, or all of a shorter file). Undefined: no URL column. */
export function urlColumnOf(sample: string[][]): UrlColumn | undefined {
  const [firstRow] = sample;
  if (!firstRow) return undefined;
  const named = namedColumn(firstRow);
  if (named !== undefined) return { column: named, header: true };
  const found = mostUrlsColumn(sample);
  if (!found) return undefined;
  const header = !looksLikeUrl(firstRow[found.column]);
  const rowsBelow = header ? sample.length - 1 : sample.length;
  return found.urls * 2 >= rowsBelow ? { column: found.column, header } : undefined;
}
