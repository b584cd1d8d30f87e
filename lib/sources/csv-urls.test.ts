import { Readable } from "node:stream";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { MAX_CSV_CELL_CHARS, MAX_CSV_ROW_CHARS, readCsvUrls } from "./csv-urls";
import { describeSourceError } from "./index";
import { SourceFormatError } from "@/lib/sources/errors";

const read = (text: string) => readCsvUrls(Readable.from([Buffer.from(text)]), 1000);

describe("readCsvUrls", () => {
  it("uses the url column of a header row", async () => {
    expect(await read('id,url,title\n1,https://example.com/a,A\n2,https://example.com/b,"B, with comma"\n')).toEqual({
      urls: ["https://example.com/a", "https://example.com/b"],
      rows: 2,
    });
  });

  it.each(["loc", "LINK", "Url"])("recognises a %s header", async (header) => {
    expect((await read(`${header}\nhttps://example.com/a\n`)).urls).toEqual(["https://example.com/a"]);
  });

  it("reads a headerless first column, with a BOM and ; separators", async () => {
    expect((await read("\uFEFFhttps://example.com/a;x\r\nhttps://example.com/b;y\r\n")).urls).toEqual(["https://example.com/a", "https://example.com/b"]);
  });

  it("reads quoted fields with escaped quotes and empty lines", async () => {
    const result = await read('"url","note"\n"https://example.com/a","say ""hi"""\n\n"https://example.com/b",""\n');
    expect(result.urls).toEqual(["https://example.com/a", "https://example.com/b"]);
  });

  it("counts rows without a value", async () => {
    expect(await read("url,x\n,1\nhttps://example.com/a,2\n")).toEqual({ urls: ["https://example.com/a"], rows: 2 });
  });

  it("refuses a file with neither a URL column nor URLs", async () => {
    await expect(read("name,price\nshoe,10\n")).rejects.toBeInstanceOf(SourceFormatError);
  });
});

describe("readCsvUrls: quoting, separators and chunks", () => {
  const streamOf = (chunks: Buffer[]) => readCsvUrls(Readable.from(chunks), 10_000);

  it("reads a quoted cell holding separators, line breaks and escaped quotes", async () => {
    const csv = ["url,note", '"https://example.com/?q=""a,b""","one, two; three|four\tfive\r\nsix ""quoted"" \nseven"', 'https://example.com/b,"""",""', ""].join("\r\n");
    expect(await read(csv)).toEqual({ urls: ['https://example.com/?q="a,b"', "https://example.com/b"], rows: 2 });
  });

  it.each([
    ["tab", "\t"],
    ["pipe", "|"],
  ])("guesses a %s separator", async (_name, separator) => {
    const result = await read(`id${separator}link\n1${separator}https://example.com/a\n2${separator}https://example.com/b\n`);
    expect(result.urls).toEqual(["https://example.com/a", "https://example.com/b"]);
  });

  it("reads the same whatever the chunks, even one byte at a time", async () => {
    const bytes = Buffer.from('\uFEFFurl;title\r\n"https://example.com/é";"a\r\nb"\r\nhttps://example.com/😀;"x;""y"""\r\n');
    const whole = await streamOf([bytes]);
    expect(whole).toEqual({ urls: ["https://example.com/é", "https://example.com/😀"], rows: 2 });
    expect(await streamOf([...bytes].map((byte) => Buffer.from([byte])))).toEqual(whole);
  });

  it("cuts rows where papaparse does, stray quotes included, past the first batch", async () => {
    const tricky = [
      '"https://example.com/1" ,x',
      '"https://example.com/2"junk"still, quoted\nline",y',
      '"https://example.com/3"  \t,z',
      'https://example.com/4"mid"quote,w',
      '"https://example.com/5""",v',
      '"https://example.com/6"  "7",u',
      "https://example.com/8,last",
    ];
    const csv = ["url,x", ...Array.from({ length: 4000 }, (_, i) => `https://example.com/pad/${i},x`), ...tricky].join("\n");
    const rows = Papa.parse<string[]>(csv, { skipEmptyLines: "greedy" }).data.slice(1);
    const bytes = Buffer.from(csv);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) => bytes.subarray(i * 7, i * 7 + 7));
    expect(await streamOf(chunks)).toEqual({ urls: rows.map((cells) => cells[0]?.trim()), rows: rows.length });
  });

  it("reads an empty file as no rows", async () => {
    expect(await read("")).toEqual({ urls: [], rows: 0 });
  });
});

describe("readCsvUrls: the URL column is found from the first rows together", () => {
  const urls = (n: number, prefix = "https://shop.test/p/") => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

  it("reads a file whose first row starts with an empty cell and whose later rows hold URLs in the first column", async () => {
    expect(await read(",b,c\nhttps://shop.test/1,x,y\nhttps://shop.test/2,x,y\n")).toEqual({ urls: ["https://shop.test/1", "https://shop.test/2"], rows: 2 });
  });

  it("reads such a file past its first rows: the rows held back while judging are read as any other", async () => {
    const body = urls(25).map((url) => `${url};1`);
    expect(await read(`;b\n${body.join("\n")}\n`)).toEqual({ urls: urls(25), rows: 25 });
  });

  it.each([
    ["a header naming none of url, loc or link, over a column of URLs", "page,title\nhttps://shop.test/a,A\nhttps://shop.test/b,B\n", ["https://shop.test/a", "https://shop.test/b"], 2],
    ["URLs in the second column below a header", "id,address\n1,https://shop.test/a\n2,https://shop.test/b\n", ["https://shop.test/a", "https://shop.test/b"], 2],
    ["URLs in the second column without a header", "1,https://shop.test/a\n2,https://shop.test/b\n", ["https://shop.test/a", "https://shop.test/b"], 2],
    ["two columns of URLs: the leftmost", "https://shop.test/a,https://cdn.test/a.jpg\nhttps://shop.test/b,https://cdn.test/b.jpg\n", ["https://shop.test/a", "https://shop.test/b"], 2],
    [
      "the column with the most URLs, not the first with one",
      "https://shop.test/x,https://shop.test/a\n,https://shop.test/b\n,https://shop.test/c\n",
      ["https://shop.test/a", "https://shop.test/b", "https://shop.test/c"],
      3,
    ],
    ["a first row with a URL in that column is data, not a header", "https://shop.test/a,A\n,B\nhttps://shop.test/c,C\n", ["https://shop.test/a", "https://shop.test/c"], 3],
    ["a named column wins over a column with more URLs", "link,other\n,https://shop.test/a\nhttps://shop.test/b,https://shop.test/c\n", ["https://shop.test/b"], 2],
    ["half the rows below the header holding a URL is enough", "page\nhttps://shop.test/a\nnot a page\n", ["https://shop.test/a", "not a page"], 2],
  ])("reads %s", async (_label, csv, expected, rows) => {
    expect(await read(csv)).toEqual({ urls: expected, rows });
  });

  it.each([
    ["fewer than half the rows below the header hold a URL", "name,notes\nshoe,https://shop.test/a\nhat,\nbag,\nbelt,\n"],
    ["the first URL comes after the first 10 rows", `name\n${Array.from({ length: 10 }, (_, i) => `item ${i}`).join("\n")}\nhttps://shop.test/a\n`],
    ["a single row without a URL", ",b,c\n"],
  ])("refuses a file where %s", async (_label, csv) => {
    await expect(read(csv)).rejects.toThrow("neither a url, loc or link column nor a column of URLs in its first 10 rows");
  });

  it("an empty file has no rows and no URLs", async () => {
    expect(await read("")).toEqual({ urls: [], rows: 0 });
  });
});

describe("readCsvUrls: limits and messages", () => {
  /** What the user is shown: describeSourceError puts "The document is " before the message. */
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => "no error",
      (error: unknown) => (error instanceof SourceFormatError ? describeSourceError(error) : String(error)),
    );

  it("refuses more rows than the limit", async () => {
    const csv = `url\n${"https://example.com/\n".repeat(1001)}`;
    expect(await refusal(read(csv))).toBe("The document is a CSV file with more than 1,000 rows (the limit).");
  });

  it("refuses a file with neither a URL column nor URLs", async () => {
    expect(await refusal(read("name,price\nshoe,10\n"))).toBe("The document is a CSV file with neither a url, loc or link column nor a column of URLs in its first 10 rows.");
  });

  it(`keeps a cell of ${MAX_CSV_CELL_CHARS} characters and refuses a longer one`, async () => {
    const url = (length: number) => `https://example.com/${"a".repeat(length - "https://example.com/".length)}`;
    expect((await read(`id,url\n1,${url(MAX_CSV_CELL_CHARS)}\n`)).urls).toEqual([url(MAX_CSV_CELL_CHARS)]);
    expect(await refusal(read(`id,url\n1,"${url(MAX_CSV_CELL_CHARS)}"\n`))).toBe("The document is a CSV file with a cell longer than 8,192 characters (the limit): row 2, column 2.");
  });

  it("refuses a row longer than the limit, even of small cells", async () => {
    const cells = Array.from({ length: MAX_CSV_ROW_CHARS / 8 }, () => "1234567").join(",");
    expect(await refusal(read(`url,x\nhttps://example.com/,${cells}\n`))).toBe("The document is a CSV file with a row longer than 65,536 characters (the limit): row 2.");
  });
});
