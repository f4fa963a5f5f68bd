/**
 * Writing a list response from stored entries: the stored JSON bytes are copied into ~1 MiB chunks behind a
 * precomputed Content-Length, so a list of 150k pods is a few hundred memory copies and socket writes, with no
 * re-serialisation, no string building and no chunked-encoding framing.
 */
import type { ResponseSink } from './http-io.js';
import type { Entry } from '../storage/store.js';

const chunkBytes = 1 << 20;
const comma = Buffer.from(',');
const tail = Buffer.from(']}');

/** Sends `head` (the list's JSON up to and including `"items":[`), the entries' JSON comma-separated, then `]}`. */
export function sendListBody(res: ResponseSink, head: string, entries: readonly Entry[]): void {
  const headBytes = Buffer.from(head, 'utf8');
  let length = headBytes.length + tail.length + Math.max(0, entries.length - 1);
  for (const e of entries) length += e.size;
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': length,
    'cache-control': 'no-cache, private',
  });
  let i = 0;
  const step = (): void => {
    while (i < entries.length) {
      const parts: Buffer[] = i === 0 ? [headBytes] : [];
      let size = 0;
      for (; i < entries.length && size < chunkBytes; i++) {
        const e = entries[i];
        if (i > 0) parts.push(comma);
        if (e) parts.push(e.json);
        size += (e?.size ?? 0) + 1;
      }
      if (!res.write(Buffer.concat(parts))) {
        res.once('drain', step);
        return;
      }
    }
    res.end(entries.length === 0 ? Buffer.concat([headBytes, tail]) : tail);
  };
  step();
}
