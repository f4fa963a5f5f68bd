/** The protobuf wire format: a message as a list of (field number, value) records, nothing interpreted yet. */

/** One field record: varints as bigint, length-delimited fields as bytes, fixed fields as their raw bytes. */
export interface WireField {
  field: number;
  wireType: 0 | 1 | 2 | 5;
  varint?: bigint;
  bytes?: Buffer;
}

/** A body that is not valid protobuf. */
export class WireError extends Error {}

function readVarint(buf: Buffer, at: number): { value: bigint; next: number } {
  let value = 0n;
  let shift = 0n;
  for (let i = at; i < buf.length && i < at + 10; i++) {
    const b = buf[i] ?? 0;
    value |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return { value, next: i + 1 };
    shift += 7n;
  }
  throw new WireError(`truncated varint at byte ${at}`);
}

function take(buf: Buffer, at: number, n: number): Buffer {
  if (at + n > buf.length) throw new WireError(`field runs past the end of the message (byte ${at}, ${n} bytes)`);
  return buf.subarray(at, at + n);
}

/** Splits a message into its field records, in order. */
export function readFields(buf: Buffer): WireField[] {
  const out: WireField[] = [];
  for (let at = 0; at < buf.length;) {
    const key = readVarint(buf, at);
    at = key.next;
    const field = Number(key.value >> 3n);
    const wireType = Number(key.value & 7n);
    if (wireType === 0) {
      const v = readVarint(buf, at);
      out.push({ field, wireType, varint: v.value });
      at = v.next;
    } else if (wireType === 2) {
      const len = readVarint(buf, at);
      out.push({ field, wireType, bytes: take(buf, len.next, Number(len.value)) });
      at = len.next + Number(len.value);
    } else if (wireType === 1 || wireType === 5) {
      const n = wireType === 1 ? 8 : 4;
      out.push({ field, wireType, bytes: take(buf, at, n) });
      at += n;
    } else throw new WireError(`unsupported wire type ${wireType} for field ${field}`);
  }
  return out;
}

/** The varints of a packed repeated field. */
export function readVarints(buf: Buffer): bigint[] {
  const out: bigint[] = [];
  for (let at = 0; at < buf.length;) {
    const v = readVarint(buf, at);
    out.push(v.value);
    at = v.next;
  }
  return out;
}
