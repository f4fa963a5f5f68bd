/** How protobuf messages map to JSON: per message, field number → JSON name and type (from k8s.io/api's generated.proto). */

/** Leaf types: `int` covers int32/int64 varints; `time` is metav1.Time; `intOrString` is intstr.IntOrString. */
export type Scalar = 'string' | 'bytes' | 'int' | 'bool' | 'quantity' | 'time' | 'intOrString';

/** One field of a message. */
export interface FieldSpec {
  /** The JSON name (k8s.io/api uses the same name in the .proto). */
  name: string;
  type: Scalar | MessageSpec;
  /** `repeated`. */
  list?: boolean;
  /** `map<string, type>`: repeated entries with key = 1 and value = 2. */
  map?: boolean;
  /** A pointer field in Go: its zero value was set on purpose and is kept (replicas: 0). */
  keepZero?: boolean;
}

/** A message: its proto name (for errors) and fields by number. */
export interface MessageSpec {
  name: string;
  fields: Readonly<Record<number, FieldSpec>>;
}

/** Shorthand for a message spec. */
export function message(name: string, fields: Record<number, FieldSpec>): MessageSpec {
  return { name, fields };
}

/** Fields whose content this server does not take from a protobuf body (status is reset on create). */
export const ignored: MessageSpec = message('(ignored)', {});
