/** A minimal DER (ASN.1) encoder: just the types an X.509 certificate needs. */

function lengthBytes(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** A TLV with the given tag byte. */
export function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), lengthBytes(content.length), content]);
}

/** SEQUENCE. */
export const seq = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
/** SET. */
export const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items));
/** Context-specific constructed [n] (explicit tagging). */
export const explicit = (n: number, inner: Buffer): Buffer => tlv(0xa0 + n, inner);
/** OCTET STRING. */
export const octets = (b: Buffer): Buffer => tlv(0x04, b);
/** BOOLEAN. */
export const bool = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0]));
/** UTF8String. */
export const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));
/** BIT STRING with no unused bits. */
export const bits = (b: Buffer): Buffer => tlv(0x03, Buffer.concat([Buffer.from([0]), b]));

/** A non-negative INTEGER from big-endian bytes (a leading zero keeps it positive). */
export function integer(bytes: Buffer): Buffer {
  let b = bytes;
  while (b.length > 1 && b[0] === 0 && ((b[1] ?? 0) & 0x80) === 0) b = b.subarray(1);
  if (((b[0] ?? 0) & 0x80) !== 0) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(0x02, b);
}

/** OBJECT IDENTIFIER from dotted text. */
export function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const out: number[] = [40 * (parts[0] ?? 0) + (parts[1] ?? 0)];
  for (const p of parts.slice(2)) {
    const chunk: number[] = [p & 0x7f];
    for (let v = Math.floor(p / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** GeneralizedTime (valid for every year, unlike UTCTime). */
export function time(d: Date): Buffer {
  const text = d
    .toISOString()
    .replace(/[-:T]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return tlv(0x18, Buffer.from(text, 'ascii'));
}
