import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readCsvUrls } from "./csv-urls";
import { SourceFormatError } from "./xml-urls";

const read = (text: string) => readCsvUrls(Readable.from([Buffer.from(text)]), 1000);

describe("readCsvUrls", () => {
  it("uses the url column of a header row", async () => {
    expect(await read("id,url,title\n1,https://example.com/a,A\n2,https://example.com/b,\"B, with comma\"\n")).toEqual({
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
