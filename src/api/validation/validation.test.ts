import { describe, expect, test } from 'vitest';
import { invalidMessage, validateAndDefault, type JsonSchemaProps } from './index.js';

// A user's CRD, unrelated to Karpenter: the validator must work for any structural schema.
const widgetSchema: JsonSchemaProps = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    metadata: { type: 'object' },
    spec: {
      type: 'object',
      required: ['size'],
      properties: {
        size: { type: 'integer', minimum: 1, maximum: 10 },
        mode: { type: 'string', enum: ['fast', 'slow'], default: 'slow' },
        name: { type: 'string', maxLength: 5, pattern: '^[a-z]+$' },
        tags: { type: 'array', maxItems: 2, minItems: 1, items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
        port: { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }] },
        ratio: { type: 'number', nullable: true },
        when: { type: 'string', format: 'date-time' },
        free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        labels: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 2 },
        nested: {
          type: 'object',
          default: {},
          properties: { inner: { type: 'string', default: 'x' } },
        },
        replicas: {
          type: 'integer',
          'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'replicas is immutable' }],
        },
      },
      'x-kubernetes-validations': [
        { rule: "self.mode != 'fast' || self.size > 5", message: 'fast needs size > 5' },
        { rule: 'self.size < 9', messageExpression: "'size ' + string(self.size) + ' is too big'" },
        {
          rule: "!has(self.name) || self.name != 'bad'",
          fieldPath: '.name',
          reason: 'FieldValueForbidden',
          message: 'bad name',
        },
        { rule: 'self.size != 8' },
      ],
    },
  },
};

const blocked =
  'some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';
const widget = (spec: Record<string, unknown>): unknown => ({
  apiVersion: 'x.io/v1',
  kind: 'Widget',
  metadata: { name: 'w' },
  spec,
});
const messages = (spec: Record<string, unknown>, old?: Record<string, unknown>): string[] =>
  validateAndDefault({
    schema: widgetSchema,
    object: widget(spec),
    ...(old ? { oldObject: widget(old) } : {}),
  }).errors.map((e) => e.message);

describe('validateAndDefault on an arbitrary CRD', () => {
  test('applies defaults recursively and prunes unknown fields, keeping metadata and preserved fields', () => {
    const { object, errors } = validateAndDefault({
      schema: widgetSchema,
      object: widget({ size: 2, unknown: true, free: { anything: [1] }, nested: null }),
    });
    expect(errors).toEqual([]);
    expect(object).toEqual({
      apiVersion: 'x.io/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { size: 2, mode: 'slow', free: { anything: [1] }, nested: { inner: 'x' } },
    });
  });

  test('does not modify the caller object', () => {
    const input = widget({ size: 2 });
    validateAndDefault({ schema: widgetSchema, object: input });
    expect(input).toEqual(widget({ size: 2 }));
  });

  test('reports schema violations in kube-apiserver form', () => {
    expect(messages({})).toEqual(['spec.size: Required value', `<nil>: Invalid value: "null": ${blocked}`]);
    expect(messages({ size: 'big' })).toEqual([
      'spec.size: Invalid value: "string": spec.size in body must be of type integer: "string"',
      `<nil>: Invalid value: "null": ${blocked}`,
    ]);
    expect(messages({ size: 0 })).toEqual([
      'spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1',
    ]);
    expect(messages({ size: 11 })[0]).toBe(
      'spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10',
    );
    expect(messages({ size: 2, mode: 'medium' })).toEqual([
      'spec.mode: Unsupported value: "medium": supported values: "fast", "slow"',
      `<nil>: Invalid value: "null": ${blocked}`,
    ]);
    expect(messages({ size: 2, name: 'abcdef' })).toEqual([
      'spec.name: Too long: may not be more than 5 bytes',
      `<nil>: Invalid value: "null": ${blocked}`,
    ]);
    expect(messages({ size: 2, name: 'A1' })).toEqual([
      'spec.name: Invalid value: "A1": spec.name in body should match \'^[a-z]+$\'',
    ]);
    expect(messages({ size: 2, tags: ['a', 'b', 'c'] })).toEqual([
      'spec.tags: Too many: 3: must have at most 2 items',
      `<nil>: Invalid value: "null": ${blocked}`,
    ]);
    expect(messages({ size: 2, tags: [] })).toEqual([
      'spec.tags: Invalid value: 0: spec.tags in body should have at least 1 items',
    ]);
    expect(messages({ size: 2, tags: ['a', 'a'] })).toEqual(['spec.tags[1]: Duplicate value: "a"']);
    expect(messages({ size: 2, labels: { a: 'x', b: 'y', c: 'z' } })).toEqual([
      'spec.labels: Too many: 3: must have at most 2 items',
      `<nil>: Invalid value: "null": ${blocked}`,
    ]);
    expect(messages({ size: 2, labels: { a: 1 } })).toEqual([
      'spec.labels.a: Invalid value: "integer": spec.labels.a in body must be of type string: "integer"',
      `<nil>: Invalid value: "null": ${blocked}`,
    ]);
    expect(messages({ size: 2, when: 'yesterday' })).toEqual([
      'spec.when: Invalid value: "yesterday": spec.when in body must be of type date-time: "yesterday"',
    ]);
  });

  test('accepts int-or-string, nullable and date-time values', () => {
    expect(messages({ size: 2, port: 80 })).toEqual([]);
    expect(messages({ size: 2, port: 'http' })).toEqual([]);
    expect(messages({ size: 2, port: 1.5 })[0]).toContain('must be of type integer,string');
    expect(messages({ size: 2, ratio: null })).toEqual([]);
    expect(messages({ size: 2, when: '2024-01-02T03:04:05Z' })).toEqual([]);
  });

  test('evaluates CEL rules with message, messageExpression, fieldPath, reason and the default message', () => {
    expect(messages({ size: 2, mode: 'fast' })).toEqual(['spec: Invalid value: "object": fast needs size > 5']);
    expect(messages({ size: 9 })).toEqual(['spec: Invalid value: "object": size 9 is too big']);
    expect(messages({ size: 2, name: 'bad' })).toEqual(['spec.name: Forbidden: bad name']);
    expect(messages({ size: 8 })).toEqual(['spec: Invalid value: "object": failed rule: self.size != 8']);
  });

  test('runs transition rules only on update', () => {
    expect(messages({ size: 2, replicas: 3 })).toEqual([]);
    expect(messages({ size: 2, replicas: 3 }, { size: 2, replicas: 3 })).toEqual([]);
    expect(messages({ size: 2, replicas: 4 }, { size: 2, replicas: 3 })).toEqual([
      'spec.replicas: Invalid value: "integer": replicas is immutable',
    ]);
    expect(messages({ size: 2, replicas: 4 }, { size: 2 })).toEqual([]);
  });

  test('reports a rule that does not compile instead of throwing', () => {
    const schema: JsonSchemaProps = { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.(' }] };
    const r = validateAndDefault({ schema, object: {} });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]?.message).toContain('compilation failed');
  });
});

describe('invalidMessage', () => {
  const errs = validateAndDefault({ schema: widgetSchema, object: widget({ size: 0, mode: 'x' }) }).errors;
  test('formats one error without brackets and several with', () => {
    expect(invalidMessage({ kind: 'Widget', group: 'x.io', name: 'w', errors: errs.slice(0, 1) })).toBe(
      'Widget.x.io "w" is invalid: spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1',
    );
    expect(invalidMessage({ kind: 'Widget', group: 'x.io', name: 'w', errors: errs })).toBe(
      `Widget.x.io "w" is invalid: [${errs.map((e) => e.message).join(', ')}]`,
    );
  });
});
