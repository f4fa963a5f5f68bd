import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { productionSources } from './import-graph.js';
import { moduleStateOf } from './module-state.js';

const srcRoot = resolve(import.meta.dirname, '../../src');

/** The production layers: a cache there is an object its owner creates and passes in (DESIGN.md). */
const productionLayers = ['scheduling', 'kube', 'controllers', 'providers', 'apiserver'];

describe('module-level mutable state', () => {
  it('is absent from the production layers', () => {
    const found = productionSources(srcRoot, productionLayers).flatMap((f) =>
      moduleStateOf(f, readFileSync(f, 'utf8')).map((s) => `${relative(srcRoot, f)}:${s.line} ${s.name} (${s.why})`),
    );
    expect(found).toEqual([]);
  });

  it('is found in its forms: let, collections, objects changed after load, static fields', () => {
    const text = [
      'let count = 0;',
      'export const cache = new Map<string, number>();',
      'const seen = new WeakMap<object, number>();',
      'const table = new Interner();',
      'const ring: number[] = [];',
      'export function remember(n: number): void { ring.push(n); }',
      'const config = { limit: 1 };',
      'export function raise(): void { config.limit = 2; }',
      'export class Registry { static instances = new Set<string>(); static readonly name2 = "x"; }',
    ].join('\n');
    expect(moduleStateOf('x.ts', text).map((s) => s.name)).toEqual([
      'count',
      'cache',
      'seen',
      'table',
      'ring',
      'config',
      'Registry.instances',
    ]);
  });

  it('leaves constants alone: read-only collections, frozen or unchanged literals, state inside functions', () => {
    const text = [
      "const known: ReadonlySet<string> = new Set(['a']);",
      "export const byName: ReadonlyMap<string, number> = new Map([['a', 1]]);",
      "const order = ['a', 'b'] as const;",
      'const limits = Object.freeze({ max: 3 });',
      'const encoder = new TextEncoder();',
      'const pattern = new RegExp("^a");',
      'export function count(xs: string[]): number { const seen = new Set<string>(); let n = 0; for (const x of xs) if (!seen.has(x)) { seen.add(x); n++; } return n + order.length + limits.max; }',
      'export class Counter { private n = 0; static readonly zero = 0; next(): number { return ++this.n; } }',
    ].join('\n');
    expect(moduleStateOf('x.ts', text)).toEqual([]);
  });
});
