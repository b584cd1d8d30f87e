import { PassThrough, type Readable } from "node:stream";
import zlib from "node:zlib";
import { FetchError, sizeCap } from "@/lib/fetch";

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * A `.xml.gz` file is gzip data served as is (no Content-Encoding): recognise it by its magic bytes
 * and decompress it, with the same cap on the decompressed size.
 */
export async function gunzipIfCompressed(body: Readable, maxBytes: number, url: string): Promise<Readable> {
  const iterator = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const first = await iterator.next();
  const head: Buffer | undefined = first.done ? undefined : first.value;
  const rest = new PassThrough();
  (async () => {
    try {
      if (head) rest.write(head);
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
        if (!rest.write(next.value)) await new Promise((resolve) => rest.once("drain", resolve));
      }
      rest.end();
    } catch (error) {
      rest.destroy(error as Error);
    }
  })();
  if (!head || head[0] !== GZIP_MAGIC[0] || head[1] !== GZIP_MAGIC[1]) return rest;
  const gunzip = zlib.createGunzip();
  const cap = sizeCap(maxBytes, url);
  gunzip.on("error", (error) => cap.destroy(new FetchError("network", `${url}: invalid gzip data (${error.message})`)));
  rest.on("error", (error) => cap.destroy(error));
  return rest.pipe(gunzip).pipe(cap);
}
