import { describe, expect, test } from 'vitest';
import type { JsonSchemaProps } from '../../api/index.js';
import { applyMerge, customListKind } from './list-types.js';

const schema: JsonSchemaProps = {
  type: 'object',
  properties: {
    ports: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          port: { type: 'integer' },
          tags: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    zones: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
    hosts: { type: 'array', items: { type: 'string' } },
    selector: { type: 'object', 'x-kubernetes-map-type': 'atomic', additionalProperties: { type: 'string' } },
  },
};

describe('list types of custom resources under apply', () => {
  test('map lists merge item by item on their keys, recursively', () => {
    const live = {
      ports: [
        { name: 'http', port: 80, tags: ['a'] },
        { name: 'dns', port: 53 },
      ],
    };
    const merged = applyMerge(
      live,
      {
        ports: [
          { name: 'http', tags: ['b'] },
          { name: 'grpc', port: 9000 },
        ],
      },
      schema,
    );
    expect(merged).toEqual({
      ports: [
        { name: 'http', port: 80, tags: ['b'] },
        { name: 'dns', port: 53 },
        { name: 'grpc', port: 9000 },
      ],
    });
  });

  test('sets gain the values not there yet; unmarked lists and atomic maps are replaced', () => {
    const live = { zones: ['a', 'b'], hosts: ['x', 'y'], selector: { app: 'web', tier: 'front' } };
    expect(applyMerge(live, { zones: ['b', 'c'], hosts: ['z'], selector: { app: 'api' } }, schema)).toEqual({
      zones: ['a', 'b', 'c'],
      hosts: ['z'],
      selector: { app: 'api' },
    });
  });

  test('a map marker without keys falls back to atomic', () => {
    expect(customListKind({ type: 'array', 'x-kubernetes-list-type': 'map' })).toBe('atomic');
    expect(
      customListKind({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] }),
    ).toEqual({ keys: ['type'] });
  });
});
