import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { crdSchema, tenonCrds } from '../crds/index.js';
import { fullEC2NodeClass, fullNodeClaim, fullNodePool, minimalNodePool } from '../fixtures/index.js';
import { validateAndDefault, type JsonSchemaProps } from './index.js';

const schemas = tenonCrds().map(crdSchema);
const fixtures = [fullNodePool(), minimalNodePool(), fullNodeClaim(), fullEC2NodeClass()];
const jsonValue = fc.jsonValue({ maxDepth: 4 });

function expectWellFormed(result: ReturnType<typeof validateAndDefault>): void {
  expect(Array.isArray(result.errors)).toBe(true);
  for (const e of result.errors) {
    expect(typeof e.message).toBe('string');
    expect(e.message.startsWith(`${e.field}: `)).toBe(true);
  }
}

// Every path into a JSON value, to pick mutation targets from.
function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const out: Array<Array<string | number>> = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...paths(v, [...prefix, i])));
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  }
  return out;
}

function replaceAt(root: unknown, path: Array<string | number>, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let cur = copy;
  for (const part of path.slice(0, -1)) cur = cur[part] as Record<string | number, unknown>;
  cur[path[path.length - 1] as string | number] = value;
  return copy;
}

describe('validateAndDefault never throws', () => {
  test('on random JSON against the Tenon CRDs', () => {
    fc.assert(
      fc.property(fc.constantFrom(...schemas), jsonValue, jsonValue, (schema, object, old) => {
        expectWellFormed(validateAndDefault({ schema, object, oldObject: old }));
      }),
      { numRuns: 300 },
    );
  });

  test('on random mutations of valid manifests, and reports errors instead', () => {
    fc.assert(
      fc.property(fc.constantFrom(...fixtures), fc.nat(), jsonValue, (fixture, pick, value) => {
        const all = paths(fixture);
        const target = all[pick % all.length] ?? [];
        const object = replaceAt(fixture, target, value);
        const crd = tenonCrds().find((c) => c.spec.names.kind === fixture.kind);
        const schema = crd ? crdSchema(crd) : (schemas[0] ?? {});
        expectWellFormed(validateAndDefault({ schema, object, oldObject: fixture }));
      }),
      { numRuns: 500 },
    );
  });

  test('on arbitrary (even non-structural) schemas and odd inputs', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), (schema, object) => {
        expectWellFormed(validateAndDefault({ schema: schema as JsonSchemaProps, object }));
      }),
      { numRuns: 300 },
    );
  });

  test('on objects with cycles or bigints', () => {
    const cyclic: Record<string, unknown> = { spec: {} };
    cyclic.self = cyclic;
    expectWellFormed(validateAndDefault({ schema: schemas[0] ?? {}, object: cyclic }));
    expectWellFormed(validateAndDefault({ schema: schemas[0] ?? {}, object: { spec: { weight: 10n } } }));
  });
});
