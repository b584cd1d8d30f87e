import { Readable } from "node:stream";
import { isUtf8 } from "node:buffer";
import zlib from "node:zlib";

/**
 * A log's bytes as lines, read once as they arrive: gunzipped when the body starts with gzip's
 * magic bytes (a rotated `access.log.2.gz` as is, several members concatenated included), split
 * on `\n` (a `\r` before it dropped). Memory holds one chunk and one partial line: a line longer
 * than LINE_MAX_BYTES is not held but reported `"overlong"` once its end is reached, so that a
 * log without a newline cannot fill memory. A line that is not UTF-8 or holds a NUL byte is
 * reported `"binary"`: servers escape what they log, so such a line is damage, not a request.
 */

export const LINE_MAX_BYTES = 16 * 1024;

type Line = string | "overlong" | "binary";

/** gzip's truncated or corrupt data ends the read as if the file ended there: what came before is kept. */
export class GzipDamage extends Error {}

async function* bytesOf(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<Buffer> {
  for await (const chunk of body) {
    if (typeof chunk === "string") yield Buffer.from(chunk);
    else if (chunk.byteLength > 0) yield Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
}

/** The body's bytes, gunzipped when its first two bytes say gzip. */
async function* plainBytes(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<Buffer> {
  const source = bytesOf(body);
  let head: Buffer = Buffer.alloc(0);
  while (head.length < 2) {
    const next = await source.next();
    if (next.done) {
      if (head.length) yield head;
      return;
    }
    head = head.length ? Buffer.concat([head, next.value]) : next.value;
  }
  if (head[0] !== 0x1f || head[1] !== 0x8b) {
    yield head;
    yield* source;
    return;
  }
  async function* rest() {
    yield head;
    yield* source;
  }
  const gunzip = zlib.createGunzip();
  const input = Readable.from(rest());
  // An error of the body itself (the network) is the caller's; gzip's own errors are damage.
  let sourceError: unknown = null;
  input.on("error", (error) => {
    sourceError = error;
    gunzip.destroy(error);
  });
  input.pipe(gunzip);
  try {
    for await (const chunk of gunzip) yield chunk as Buffer;
  } catch (error) {
    if (sourceError) throw sourceError;
    throw new GzipDamage((error as Error).message);
  } finally {
    input.destroy();
  }
}

function decode(bytes: Buffer, start: number, end: number): Line {
  if (end > start && bytes[end - 1] === 0x0d) end--;
  const line = bytes.subarray(start, end);
  if (line.indexOf(0) >= 0 || !isUtf8(line)) return "binary";
  return line.toString("utf8");
}

export async function* linesOf(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<Line> {
  let carry: Buffer | null = null;
  let overlong = false;
  for await (const chunk of plainBytes(body)) {
    let start = 0;
    let newline = chunk.indexOf(0x0a);
    while (newline >= 0) {
      if (overlong) {
        overlong = false;
        yield "overlong";
      } else if (carry) {
        const whole = Buffer.concat([carry, chunk.subarray(0, newline)]);
        carry = null;
        yield whole.length > LINE_MAX_BYTES ? "overlong" : decode(whole, 0, whole.length);
      } else {
        yield newline - start > LINE_MAX_BYTES ? "overlong" : decode(chunk, start, newline);
      }
      start = newline + 1;
      newline = chunk.indexOf(0x0a, start);
    }
    if (start < chunk.length && !overlong) {
      // Copied: holding a slice would keep the whole chunk alive.
      const tail = Buffer.from(chunk.subarray(start));
      carry = carry ? Buffer.concat([carry, tail]) : tail;
      if (carry.length > LINE_MAX_BYTES) {
        carry = null;
        overlong = true;
      }
    }
  }
  if (overlong) yield "overlong";
  else if (carry) yield decode(carry, 0, carry.length);
}
