import { readFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { AccessLogError, type AccessLogOptions, LOG_MAX_KEYS, readAccessLog } from "@/lib/traffic/logs";
import { LINE_MAX_BYTES } from "@/lib/traffic/logs/lines";

const options: AccessLogOptions = { domain: "shop.example.com", keepsQuery: () => false };
const read = (parts: (string | Buffer)[], opts: Partial<AccessLogOptions> = {}) =>
  readAccessLog(Readable.from(parts.map((part) => (typeof part === "string" ? Buffer.from(part) : part))), { ...options, ...opts });
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36";
const combined = (target: string, extra: { host?: string; status?: number; time?: string } = {}) =>
  `${extra.host ? `${extra.host}:443 ` : ""}203.0.113.9 - - [${extra.time ?? "01/Mar/2024:12:00:00 +0000"}] "GET ${target} HTTP/1.1" ${extra.status ?? 200} 512 "-" "${CHROME}"\n`;

describe("readAccessLog on broken and hostile lines", () => {
  it("counts each broken line and reads the good ones around it", async () => {
    const good = readFileSync(path.join(import.meta.dirname, "fixtures", "nginx-combined.log"));
    const hostile = [
      Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03, 0x0a]), // a TLS handshake's bytes
      Buffer.from(`203.0.113.9 - - [01/Mar/2024:12:00:00 +0000] "GET /a\u0000b HTTP/1.1" 200 5 "-" "${CHROME}"\n`), // NUL
      Buffer.from([0x47, 0x45, 0x54, 0x20, 0x2f, 0xe9, 0x74, 0xe9, 0x0a]), // Latin-1, not UTF-8
      "[1,2,3]\n",
      '"a string"\n',
      "null\n",
      '{"status": 200, "request_uri": "/no-method-nor-time"}\n',
      '{"request_method":"GET","request_uri":"/x","status":200,"time_iso8601":"2024-02-31T10:00:00+00:00"}\n', // no such day
      "{not json\n",
      '203.0.113.9 - - [32/Foo/2024:12:00:00 +0000] "GET / HTTP/1.1" 200 5\n',
      '203.0.113.9 - - [01/Mar/2024:12:00:00 +0000] "GET / HTTP/1.1" 2000 5\n',
      '203.0.113.9 - - [01/Mar/2024:12:00:00 +0000] "GET / HTTP/1.1 200 5\n', // unclosed quote
      combined("not-a-path"),
      `203.0.113.9 - - [01/Mar/2024:12:00:00 +0000] "GET /${"a".repeat(LINE_MAX_BYTES)} HTTP/1.1" 200 5 "-" "${CHROME}"\n`, // over the line cap
    ];
    const result = await read([good, ...hostile, "\n\n", good]);
    expect(result.counts).toMatchObject({ lines: 48 + hostile.length, counted: 26, broken: hostile.length, format: "combined" });
    for (const paths of result.visits.values()) for (const p of paths.keys()) expect(p.includes("\u0000")).toBe(false);
  });

  it("skips an enormous line without holding it, even without a newline at the end", async () => {
    const chunk = Buffer.alloc(1 << 20, 0x61);
    const parts = [combined("/first"), ...Array.from({ length: 8 }, () => chunk), "\n", combined("/second"), ...Array.from({ length: 8 }, () => chunk)];
    const result = await read(parts);
    expect(result.counts).toMatchObject({ lines: 4, counted: 2, broken: 2 });
  });

  it("never keeps a NUL, a space or a raw non-ASCII character in a path, and keeps escapes as escapes", async () => {
    const result = await read([
      combined("/a%00b"),
      combined("/caf\\xC3\\xA9/"), // nginx's escape of raw bytes in the request line
      combined("/caf%C3%A9/"),
      combined("/%41%62c%2Fd"), // unreserved letters decoded, %2F kept
      combined("/trailing%"),
      `{"request_method":"GET","request_uri":"/é à","status":200,"time_iso8601":"2024-03-01T12:00:00+00:00","http_user_agent":"${CHROME}"}\n`,
    ]);
    expect([...result.visits.get("2024-03-01")!.entries()]).toEqual([
      ["/a%00b", 1],
      ["/caf%C3%A9/", 2],
      ["/Abc%2Fd", 1],
      ["/trailing%25", 1],
      ["/%C3%A9%20%C3%A0", 1],
    ]);
  });

  it("throws AccessLogError when nothing can be read, with a message that holds no line", async () => {
    await expect(read([])).rejects.toThrow(AccessLogError);
    await expect(read(["\n\n#Version: 1.0\n"])).rejects.toThrow(/empty/);
    const garbage = read([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), "secret-token=abc\n", "<html>\n"]);
    await expect(garbage).rejects.toThrow(AccessLogError);
    await expect(garbage).rejects.toThrow(/4 lines, all broken/); // the PNG signature holds a newline;
    await expect(garbage).rejects.not.toThrow(/secret/);
    await expect(read([Buffer.from([0x1f, 0x8b, 0x08, 0x00, 1, 2, 3])])).rejects.toThrow(AccessLogError); // gzip's magic, then garbage
  });

  it("reads a log of only skipped lines (nothing counted is not nothing read)", async () => {
    const result = await read([combined("/missing", { status: 404 })]);
    expect(result.counts).toMatchObject({ lines: 1, counted: 0, skipped: { status: 1 } });
  });

  it("passes the body's own error on: it is not the log's fault", async () => {
    async function* failing() {
      yield Buffer.from(combined("/"));
      throw new Error("connection reset");
    }
    await expect(readAccessLog(failing(), options)).rejects.toThrow("connection reset");
  });
});

describe("readAccessLog's rules", () => {
  it("counts the domain, its www. twin and absolute-form targets, whatever their case and port", async () => {
    const result = await read(
      [
        combined("/a", { host: "shop.example.com" }),
        combined("/a", { host: "WWW.Shop.Example.com" }),
        combined("/a", { host: "cdn.shop.example.com" }),
        combined("/a", { host: "example.com" }),
        combined("http://www.shop.example.com:8080/b"),
        combined("http://evil.example.net/b"),
      ],
      { domain: "www.shop.example.com" },
    );
    expect(result.counts).toMatchObject({ counted: 3, skipped: { host: 3 } });
    expect(Object.fromEntries(result.visits.get("2024-03-01")!)).toEqual({ "/a": 2, "/b": 1 });
  });

  it("keeps a query only where keepsQuery says so, asking with the bare path", async () => {
    const asked: string[] = [];
    const result = await read([combined("/search?q=shoes"), combined("/search?q=boots"), combined("/about?utm_source=x"), combined("/about"), combined("/search?q=shoes#top")], {
      keepsQuery: (p) => {
        asked.push(p);
        return p === "/search";
      },
    });
    expect(Object.fromEntries(result.visits.get("2024-03-01")!)).toEqual({ "/search?q=shoes": 2, "/search?q=boots": 1, "/about": 2 });
    expect(asked.sort()).toEqual(["/about", "/search"]);
  });

  it("takes each line's day in UTC from its own offset", async () => {
    const result = await read([combined("/a", { time: "01/Mar/2024:23:30:00 -0200" }), combined("/a", { time: "02/Mar/2024:00:30:00 +0200" })]);
    expect(Object.fromEntries([...result.visits].map(([day, paths]) => [day, Object.fromEntries(paths)]))).toEqual({ "2024-03-02": { "/a": 1 }, "2024-03-01": { "/a": 1 } });
  });

  it("holds at most maxKeys day × path keys, dropping the least visited, and says so", async () => {
    const lines: string[] = [];
    for (let i = 0; i < 50; i++) lines.push(combined("/popular"), combined("/second"), combined("/second"));
    for (let i = 0; i < 1000; i++) lines.push(combined(`/once-${i}`));
    const result = await read(lines, { maxKeys: 10 });
    const paths = result.visits.get("2024-03-01")!;
    expect(paths.size).toBeLessThanOrEqual(10);
    expect(paths.get("/popular")).toBe(50);
    expect(paths.get("/second")).toBe(100);
    expect(result.counts).toMatchObject({ lines: 1150, counted: 1150, truncated: true });
    expect(result.counts.paths).toBe(paths.size);
    expect(LOG_MAX_KEYS).toBeGreaterThanOrEqual(100_000);
  });
});
