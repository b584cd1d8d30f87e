import type { Readable } from "node:stream";
import { SourceFormatError } from "@/lib/sources/errors";

/** Bytes looked at before choosing the encoding: enough for a BOM and an XML declaration. */
const SNIFF_BYTES = 1024;

/** The `charset` parameter of a Content-Type header, if any. */
export function charsetOf(contentType: string | null | undefined): string | null {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? "");
  return match ? match[1]!.toLowerCase() : null;
}

/**
 * The document's encoding, in this order: a byte order mark (UTF-8, UTF-16 LE/BE), the XML
 * declaration's `encoding` (UTF-16 without a BOM is recognised by its first `<?`), the charset of
 * Content-Type, UTF-8. The declaration comes before the header's charset because servers often
 * add a default charset that the file itself contradicts.
 */
function sniffEncoding(head: Uint8Array, charset: string | null): string {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return "utf-8";
  if (head[0] === 0xff && head[1] === 0xfe) return "utf-16le";
  if (head[0] === 0xfe && head[1] === 0xff) return "utf-16be";
  if (head[0] === 0x3c && head[1] === 0x00 && head[2] === 0x3f && head[3] === 0x00) return "utf-16le";
  if (head[0] === 0x00 && head[1] === 0x3c && head[2] === 0x00 && head[3] === 0x3f) return "utf-16be";
  const declaration = /^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(Buffer.from(head).toString("latin1"));
  return (declaration?.[1] ?? charset ?? "utf-8").toLowerCase();
}

/** Windows-1252's bytes 0x80–0x9F (the rest is Latin-1); unassigned bytes stay as they are. */
const CP1252_HIGH = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

/**
 * Node's TextDecoder reads windows-1252 (and ISO-8859-1, which WHATWG maps to it) as plain
 * Latin-1, so that 0x80 gives U+0080 instead of €: single bytes are mapped here.
 */
const windows1252 = {
  decode(bytes?: Uint8Array): string {
    return bytes
      ? Buffer.from(bytes)
          .toString("latin1")
          .replace(/[\u0080-\u009f]/g, (c) => CP1252_HIGH[c.charCodeAt(0) - 0x80]!)
      : "";
  },
};

type Decoder = { decode(bytes?: Uint8Array, options?: { stream?: boolean }): string };

function decoderFor(encoding: string): Decoder {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(encoding);
  } catch {
    throw new SourceFormatError(`in an encoding we cannot read (${encoding})`);
  }
  return decoder.encoding === "windows-1252" ? windows1252 : decoder;
}

/**
 * The stream's text in its own encoding (see sniffEncoding), chunk by chunk, a character split
 * between chunks kept whole and a BOM dropped.
 */
export async function* decodedText(stream: Readable, charset: string | null): AsyncGenerator<string> {
  let decoder: Decoder | undefined;
  let head = Buffer.alloc(0);
  for await (const chunk of stream as AsyncIterable<Buffer | string>) {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    if (decoder) {
      yield decoder.decode(bytes, { stream: true });
      continue;
    }
    head = Buffer.concat([head, bytes]);
    if (head.length < SNIFF_BYTES) continue;
    decoder = decoderFor(sniffEncoding(head, charset));
    yield decoder.decode(head, { stream: true });
  }
  // A document shorter than SNIFF_BYTES is decoded whole here.
  const rest = decoder ? decoder.decode() : decoderFor(sniffEncoding(head, charset)).decode(head);
  if (rest) yield rest;
}
