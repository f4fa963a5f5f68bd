/**
 * The text of generated-messages.ts, from the protobuf descriptors compiled into a kubectl binary (k8s.io/api
 * embeds each generated.proto as a gzipped FileDescriptorProto). Only the messages reachable from the kinds
 * this server decodes are written: field numbers, JSON names and types, nothing else.
 */
import { gunzipSync } from 'node:zlib';
import { rootKinds } from './roots.js';
import { readFields, type WireField } from './wire.js';

interface Field {
  name: string;
  number: number;
  repeated: boolean;
  type: number;
  typeName: string;
}

interface Message {
  name: string;
  fields: Field[];
  mapEntry: boolean;
}

const gzipHeader = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0xff]);

function str(fs: WireField[], n: number): string {
  return fs.find((f) => f.field === n)?.bytes?.toString('utf8') ?? '';
}

function num(fs: WireField[], n: number): number {
  return Number(fs.find((f) => f.field === n)?.varint ?? 0n);
}

// descriptor.proto: DescriptorProto name 1, field 2, nested_type 3, options 7 (map_entry 7);
// FieldDescriptorProto name 1, number 3, label 4 (3 = repeated), type 5, type_name 6.
function messagesOf(prefix: string, desc: Buffer, out: Map<string, Message>): void {
  const fs = readFields(desc);
  const name = `${prefix}.${str(fs, 1)}`;
  const options = readFields(fs.find((f) => f.field === 7)?.bytes ?? Buffer.alloc(0));
  const fields = fs
    .filter((f) => f.field === 2)
    .map((f) => readFields(f.bytes ?? Buffer.alloc(0)))
    .map((ff) => ({
      name: str(ff, 1),
      number: num(ff, 3),
      repeated: num(ff, 4) === 3,
      type: num(ff, 5),
      typeName: str(ff, 6),
    }));
  out.set(name, { name, fields, mapEntry: num(options, 7) === 1 });
  for (const nested of fs.filter((f) => f.field === 3)) messagesOf(name, nested.bytes ?? Buffer.alloc(0), out);
}

function descriptors(binary: Buffer): Map<string, Message> {
  const out = new Map<string, Message>();
  for (let at = binary.indexOf(gzipHeader); at >= 0; at = binary.indexOf(gzipHeader, at + 1)) {
    let file: Buffer;
    try {
      file = gunzipSync(binary.subarray(at, at + 2_000_000), { finishFlush: 2 });
    } catch {
      continue;
    }
    const fs = readFieldsSafe(file);
    if (!fs || !str(fs, 1).endsWith('generated.proto')) continue;
    for (const m of fs.filter((f) => f.field === 4)) messagesOf(`.${str(fs, 2)}`, m.bytes ?? Buffer.alloc(0), out);
  }
  return out;
}

function readFieldsSafe(buf: Buffer): WireField[] | undefined {
  try {
    return readFields(buf);
  } catch {
    return undefined;
  }
}

// Well-known apimachinery messages with their own JSON form.
const special: Record<string, string> = {
  '.k8s.io.apimachinery.pkg.api.resource.Quantity': 'quantity',
  '.k8s.io.apimachinery.pkg.apis.meta.v1.Time': 'time',
  '.k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime': 'microTime',
  '.k8s.io.apimachinery.pkg.apis.meta.v1.Duration': 'duration',
  '.k8s.io.apimachinery.pkg.util.intstr.IntOrString': 'intOrString',
  '.k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1': 'rawJson',
  '.k8s.io.apimachinery.pkg.runtime.RawExtension': 'rawJson',
};

// FieldDescriptorProto.Type: 1 double, 3 int64, 4 uint64, 5 int32, 8 bool, 9 string, 11 message, 12 bytes, 13 uint32.
const scalars: Record<number, string> = {
  1: 'double',
  3: 'int',
  4: 'int',
  5: 'int',
  8: 'bool',
  9: 'string',
  12: 'bytes',
  13: 'int',
};

const inlined: ReadonlySet<string> = new Set([
  'localObjectReference',
  'ephemeralContainerCommon',
  'persistentVolumeSource',
  'handler',
  'volumeSource',
]);

function short(name: string): string {
  return name.replace(/^\.k8s\.io\.(api|apimachinery\.pkg\.apis)\./, '');
}

function typeOf(f: Field, all: Map<string, Message>, queue: string[]): string {
  if (f.type !== 11) {
    const s = scalars[f.type];
    if (!s) throw new Error(`field ${f.name}: unsupported scalar type ${f.type}`);
    return s;
  }
  const sp = special[f.typeName];
  if (sp) return sp;
  const m = all.get(f.typeName);
  if (!m) throw new Error(`unknown message ${f.typeName}`);
  if (m.mapEntry) {
    const value = m.fields.find((x) => x.number === 2);
    if (!value) throw new Error(`map entry ${f.typeName} has no value`);
    return `{${typeOf(value, all, queue)}}`;
  }
  queue.push(f.typeName);
  return short(f.typeName);
}

function render(all: Map<string, Message>): string {
  // Breadth-first from the roots; each message once.
  const queue = rootKinds.map((r) => `.k8s.io.api.${r.message}`);
  const lines = new Map<string, string>();
  while (queue.length > 0) {
    const name = queue.shift() ?? '';
    if (lines.has(short(name))) continue;
    const m = all.get(name);
    if (!m) throw new Error(`unknown root ${name}`);
    const fields = m.fields.map((f) => {
      const t = typeOf(f, all, queue);
      // Go embeds these structs: their fields sit inline in the JSON object.
      const name = inlined.has(f.name) ? '*' : f.name;
      return `${f.number} ${name} ${t}${f.repeated && !t.startsWith('{') ? '[]' : ''}`;
    });
    lines.set(short(name), fields.join(', '));
  }
  const body = [...lines].sort(([a], [b]) => a.localeCompare(b)).map(([n, f]) => `  '${n}': '${f}',`);
  return `/**
 * Generated by regenerate.ts from kubectl's embedded k8s.io/api descriptors: message → "number name type"
 * per field; \`T[]\` is repeated, \`{T}\` a map of string to T, name \`*\` an embedded (inline) struct.
 * Do not edit by hand.
 */
export const generatedMessages: Readonly<Record<string, string>> = {
${body.join('\n')}
};
`;
}

/** The generated-messages.ts module for the descriptors in a kubectl binary. */
export function renderMessages(kubectl: Buffer): string {
  return render(descriptors(kubectl));
}
