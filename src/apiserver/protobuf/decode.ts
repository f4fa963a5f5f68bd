/**
 * Protobuf request bodies (`application/vnd.kubernetes.protobuf`): the `k8s\0` magic, a runtime.Unknown
 * envelope naming apiVersion and kind, and the object's message, decoded to the JSON object the rest of the
 * server handles. Every field of the served kinds' messages is known (messages.ts); other kinds, and fields
 * newer than the messages, are a 415 saying so rather than an object silently missing fields.
 */
import { ApiError } from '../status.js';
import type { Json } from '../types.js';
import { kindMessages } from './messages.js';
import type { FieldSpec, MessageSpec, Scalar } from './schema.js';
import { readFields, readVarints, WireError, type WireField } from './wire.js';

const magic = Buffer.from([0x6b, 0x38, 0x73, 0x00]);
// An absent field reads as its zero value.
const emptyField: WireField = { field: 0, wireType: 2, bytes: Buffer.alloc(0), varint: 0n };

function unsupported(message: string): ApiError {
  return new ApiError(415, 'UnsupportedMediaType', message);
}

function text(f: WireField): string {
  return f.bytes?.toString('utf8') ?? '';
}

// A field that carries nothing (gogo-protobuf writes every non-pointer field, zero or not).
function isEmpty(f: WireField): boolean {
  return f.wireType === 2 ? (f.bytes?.length ?? 0) === 0 : f.varint === 0n || (f.bytes?.every((b) => b === 0) ?? false);
}

function int(f: WireField): number {
  return Number(BigInt.asIntN(64, f.varint ?? 0n));
}

function timeText(f: WireField, micro: boolean): string | undefined {
  const parts = readFields(f.bytes ?? Buffer.alloc(0));
  const seconds = parts.find((p) => p.field === 1);
  if (!seconds || isEmpty(seconds)) return undefined;
  const iso = new Date(int(seconds) * 1000).toISOString();
  if (!micro) return iso.replace('.000Z', 'Z');
  // metav1.MicroTime: RFC 3339 with six fractional digits.
  const nanos = parts.find((p) => p.field === 2);
  return `${iso.slice(0, 19)}.${String(Math.floor((nanos ? int(nanos) : 0) / 1000)).padStart(6, '0')}Z`;
}

// metav1.Duration: nanoseconds, written as Go prints a time.Duration (1h2m3s, 1.5s).
function durationText(f: WireField): string {
  const ns = int(readFields(f.bytes ?? Buffer.alloc(0)).find((p) => p.field === 1) ?? emptyField);
  if (ns === 0) return '0s';
  const h = Math.floor(ns / 3.6e12);
  const m = Math.floor((ns % 3.6e12) / 6e10);
  const sec = (ns % 6e10) / 1e9;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${sec}s`;
}

// FieldsV1 and RawExtension carry a JSON document in their first field.
function rawJson(f: WireField): unknown {
  const raw = readFields(f.bytes ?? Buffer.alloc(0)).find((p) => p.field === 1)?.bytes ?? Buffer.alloc(0);
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw unsupported(
      'this server decodes embedded objects in protobuf bodies only when they are JSON; send the object as JSON instead',
    );
  }
}

function intOrString(f: WireField): string | number {
  const parts = readFields(f.bytes ?? Buffer.alloc(0));
  const isString = parts.some((p) => p.field === 1 && int(p) === 1);
  const value = parts.find((p) => p.field === (isString ? 3 : 2));
  if (isString) return value ? text(value) : '';
  return value ? int(value) : 0;
}

// One decoder per leaf type; a missing one fails to compile.
const leafDecoders: { [k in Scalar]: (f: WireField) => unknown } = {
  string: text,
  bytes: (f) => (f.bytes ?? Buffer.alloc(0)).toString('base64'),
  int,
  double: (f) => (f.bytes?.length === 8 ? f.bytes.readDoubleLE(0) : 0),
  bool: (f) => f.varint !== 0n,
  quantity: (f) => text(readFields(f.bytes ?? Buffer.alloc(0)).find((p) => p.field === 1) ?? emptyField),
  time: (f) => timeText(f, false),
  microTime: (f) => timeText(f, true),
  duration: durationText,
  intOrString,
  rawJson,
};

function scalar(type: Scalar, f: WireField): unknown {
  return leafDecoders[type](f);
}

function value(spec: FieldSpec, f: WireField): unknown {
  return typeof spec.type === 'string' ? scalar(spec.type, f) : decodeMessage(spec.type, f.bytes ?? Buffer.alloc(0));
}

function mapEntry(spec: FieldSpec, f: WireField): [string, unknown] {
  const parts = readFields(f.bytes ?? Buffer.alloc(0));
  const key = parts.find((p) => p.field === 1);
  const val = parts.find((p) => p.field === 2);
  return [key ? text(key) : '', value(spec, val ?? emptyField)];
}

// Repeated numbers may arrive packed: one length-delimited field holding the varints.
function listValues(spec: FieldSpec, f: WireField): unknown[] {
  if (f.wireType === 2 && (spec.type === 'int' || spec.type === 'bool')) {
    return readVarints(f.bytes ?? Buffer.alloc(0)).map((v) =>
      scalar(spec.type as Scalar, { field: f.field, wireType: 0, varint: v }),
    );
  }
  return [value(spec, f)];
}

function setField(out: Json, spec: FieldSpec, f: WireField): void {
  if (spec.inline) {
    if (typeof spec.type !== 'string') Object.assign(out, decodeMessage(spec.type, f.bytes ?? Buffer.alloc(0)));
  } else if (spec.map) {
    const m = (out[spec.name] ??= {}) as Json;
    const [k, v] = mapEntry(spec, f);
    m[k] = v;
  } else if (spec.list) {
    ((out[spec.name] ??= []) as unknown[]).push(...listValues(spec, f));
  } else if (!isEmpty(f) || spec.keepZero || typeof spec.type !== 'string') {
    // A message that arrives was set: a pointer on purpose (emptyDir: {}), a struct because JSON writes it too.
    const v = value(spec, f);
    if (v !== undefined) out[spec.name] = v;
  }
}

function decodeMessage(spec: MessageSpec, buf: Buffer): Json {
  const out: Json = {};
  for (const f of readFields(buf)) {
    const field = spec.fields[f.field];
    if (field) setField(out, field, f);
    else if (!isEmpty(f))
      throw unsupported(
        `this server cannot decode field ${f.field} of ${spec.name} from protobuf; send the object as JSON instead (for example with kubectl create -f FILE)`,
      );
  }
  return out;
}

/** Decodes a protobuf request body into the JSON object it encodes; 415 for kinds or fields not known here. */
export function decodeProtobufBody(body: Buffer): Json {
  if (body.length < magic.length || !body.subarray(0, magic.length).equals(magic))
    throw unsupported('the protobuf body does not start with the k8s\\0 magic');
  try {
    const envelope = readFields(body.subarray(magic.length));
    const typeMeta = readFields(envelope.find((f) => f.field === 1)?.bytes ?? Buffer.alloc(0));
    const apiVersion = text(typeMeta.find((f) => f.field === 1) ?? emptyField);
    const kind = text(typeMeta.find((f) => f.field === 2) ?? emptyField);
    const spec = kindMessages.get(`${apiVersion}/${kind}`);
    if (!spec) {
      const known = [...kindMessages.keys()].join(', ');
      throw unsupported(
        `this server decodes protobuf bodies only for ${known}; send ${apiVersion} ${kind} as JSON instead`,
      );
    }
    const raw = envelope.find((f) => f.field === 2)?.bytes ?? Buffer.alloc(0);
    return { apiVersion, kind, ...decodeMessage(spec, raw) };
  } catch (e: unknown) {
    if (e instanceof WireError)
      throw new ApiError(400, 'BadRequest', `the protobuf body could not be decoded: ${e.message}`);
    throw e;
  }
}
