/** How protobuf messages map to JSON: per message, field number → JSON name and type (from k8s.io/api's generated.proto). */

/**
 * Leaf types: `int` covers the integer varints; `time`/`microTime` are metav1.Time/MicroTime, `duration`
 * metav1.Duration, `intOrString` intstr.IntOrString, `rawJson` a JSON document in bytes (FieldsV1, RawExtension).
 */
export type Scalar =
  | 'string'
  | 'bytes'
  | 'int'
  | 'double'
  | 'bool'
  | 'quantity'
  | 'time'
  | 'microTime'
  | 'duration'
  | 'intOrString'
  | 'rawJson';

/** One field of a message. */
export interface FieldSpec {
  /** The JSON name (k8s.io/api uses the same name in the .proto). */
  name: string;
  type: Scalar | MessageSpec;
  /** `repeated`. */
  list?: boolean;
  /** `map<string, type>`: repeated entries with key = 1 and value = 2. */
  map?: boolean;
  /** A Go pointer, or a field JSON always writes: a zero value was set on purpose and is kept (replicas: 0). */
  keepZero?: boolean;
  /** A Go embedded struct: its fields are merged into the enclosing JSON object. */
  inline?: boolean;
}

/** A message: its proto name (for errors) and fields by number. */
export interface MessageSpec {
  name: string;
  fields: Record<number, FieldSpec>;
}
