import { finished, pipeline, Readable } from "node:stream";
import zlib from "node:zlib";
import { FetchError, sizeCap } from "@/lib/fetch";

const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

/**
 * Reads the first `size` bytes of `body` (fewer when it is shorter) and puts them back. The stream to
 * read on is `body` itself, so that destroying it still reaches the connection; only a body that
 * ended within those bytes is replaced, since an ended stream takes nothing back.
 */
function peek(body: Readable, size: number): Promise<{ head: Buffer; stream: Readable }> {
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const stop = (error?: Error | null) => {
      body.off("data", onData);
      stopWatching();
      if (error) return reject(error);
      if (body.readableEnded) return resolve({ head, stream: Readable.from(head.length ? [head] : []) });
      body.pause();
      body.unshift(head);
      resolve({ head, stream: body });
    };
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      if (head.length >= size) stop();
    };
    const stopWatching = finished(body, stop);
    body.on("data", onData);
  });
}

/**
 * A `.xml.gz` file is gzip data served as is (no Content-Encoding): recognise it by its magic bytes
 * and decompress it, with the same cap on the decompressed size.
 */
export async function gunzipIfCompressed(body: Readable, maxBytes: number, url: string): Promise<Readable> {
  const { head, stream } = await peek(body, GZIP_MAGIC.length);
  if (!head.subarray(0, GZIP_MAGIC.length).equals(GZIP_MAGIC)) return stream;
  const gunzip = zlib.createGunzip();
  const cap = sizeCap(maxBytes, url);
  // Listening before pipeline() does: the consumer gets this explanation, not zlib's own error.
  gunzip.on("error", (error) => cap.destroy(new FetchError("network", `${url}: invalid gzip data (${error.message})`)));
  // pipeline(), unlike pipe(), passes a destroy upstream: the cap cutting off, or a consumer that
  // stops early, destroys `body` too, and with it the request and its connection.
  return pipeline(stream, gunzip, cap, () => {});
}
