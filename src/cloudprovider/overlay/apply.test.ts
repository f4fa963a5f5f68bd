import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { Labels } from '../../api/index.js';
import type { InstanceType } from '../instance-type.js';
import { adjustedPrice, applyOverlays, type OverlayRule } from './apply.js';

function type(name: string, cpu: number, price: number): InstanceType {
  return {
    name,
    labels: {
      [Labels.instanceType]: name,
      'karpenter.k8s.aws/instance-cpu': String(cpu),
      'karpenter.k8s.aws/instance-family': name.split('.')[0] ?? '',
    },
    requirements: [],
    capacity: { cpu: String(cpu), memory: `${cpu * 4}Gi`, pods: '110' },
    overhead: { kubeReserved: {}, systemReserved: {}, evictionThreshold: {} },
    allocatable: { cpu: String(cpu), memory: `${cpu * 4}Gi`, pods: '110' },
    offerings: [
      { zone: 'a', capacityType: 'on-demand', price, available: true },
      { zone: 'a', capacityType: 'spot', price: price / 3, available: true },
    ],
  };
}

const types = [type('m5.large', 2, 0.096), type('m5.xlarge', 4, 0.192), type('c5.xlarge', 4, 0.17)];
const priceOf = (ts: InstanceType[], name: string, ct = 'on-demand'): number | undefined =>
  ts.find((t) => t.name === name)?.offerings.find((o) => o.capacityType === ct)?.price;
const family = (f: string): OverlayRule['requirements'] => [
  { key: 'karpenter.k8s.aws/instance-family', operator: 'In', values: [f] },
];

describe('NodeOverlay price', () => {
  test('price replaces, priceAdjustment adds dollars or a percentage, never below zero', () => {
    expect(adjustedPrice(0.2, { price: '0.05' })).toBe(0.05);
    expect(adjustedPrice(0.2, { priceAdjustment: '+0.1' })).toBeCloseTo(0.3);
    expect(adjustedPrice(0.2, { priceAdjustment: '-0.5' })).toBe(0);
    expect(adjustedPrice(0.2, { priceAdjustment: '-25%' })).toBeCloseTo(0.15);
    expect(adjustedPrice(0.2, { priceAdjustment: '+10%' })).toBeCloseTo(0.22);
    expect(adjustedPrice(0.2, { priceAdjustment: '-100%' })).toBe(0);
  });

  test('only the selected instance types and offerings change', () => {
    const spotC5: OverlayRule = {
      name: 'spot-c5',
      requirements: [...family('c5'), { key: Labels.capacityType, operator: 'In', values: ['spot'] }],
      priceAdjustment: '-50%',
    };
    const { types: out } = applyOverlays(types, [spotC5], 'default');
    expect(priceOf(out, 'c5.xlarge', 'spot')).toBeCloseTo(0.17 / 3 / 2);
    expect(priceOf(out, 'c5.xlarge')).toBe(0.17);
    expect(priceOf(out, 'm5.xlarge', 'spot')).toBeCloseTo(0.192 / 3);
  });

  test('Gte and Lte select by integer label, bounds included', () => {
    const big: OverlayRule = {
      name: 'big',
      requirements: [{ key: 'karpenter.k8s.aws/instance-cpu', operator: 'Gte', values: ['4'] }],
      price: '1',
    };
    const small: OverlayRule = {
      name: 'small',
      requirements: [{ key: 'karpenter.k8s.aws/instance-cpu', operator: 'Lte', values: ['2'] }],
      price: '2',
    };
    const { types: out } = applyOverlays(types, [big, small], 'default');
    expect(types.map((t) => priceOf(out, t.name))).toEqual([2, 1, 1]);
  });

  test('the highest weight wins; an overlay may select by NodePool', () => {
    const low: OverlayRule = { name: 'a-low', weight: 1, requirements: family('m5'), price: '0.01' };
    const high: OverlayRule = {
      name: 'z-high',
      weight: 10,
      requirements: [...family('m5'), { key: Labels.nodePool, operator: 'In', values: ['batch'] }],
      price: '0.02',
    };
    expect(priceOf(applyOverlays(types, [low, high], 'batch').types, 'm5.large')).toBe(0.02);
    expect(priceOf(applyOverlays(types, [low, high], 'default').types, 'm5.large')).toBe(0.01);
  });

  test('equal weights (Karpenter v1.15): the name later in the alphabet wins; the other conflicts and applies nowhere', () => {
    const a: OverlayRule = { name: 'alpha', weight: 5, requirements: family('m5'), price: '0.01' };
    const b: OverlayRule = {
      name: 'beta',
      weight: 5,
      requirements: [{ key: Labels.instanceType, operator: 'In', values: ['m5.large'] }],
      priceAdjustment: '-10%',
    };
    const before = priceOf(types, 'm5.large') ?? 0;
    const { types: out, conflicts } = applyOverlays(types, [a, b], 'default');
    expect(priceOf(out, 'm5.large')).toBeCloseTo(before * 0.9, 10);
    // alpha also selects m5.xlarge, where nothing else competes: a conflicting overlay is not applied at all.
    expect(priceOf(out, 'm5.xlarge')).toBe(priceOf(types, 'm5.xlarge'));
    expect([...conflicts.keys()]).toEqual(['alpha']);
    expect(conflicts.get('alpha')).toMatch(
      /^conflict with another overlay: NodeOverlay beta \(same weight 5\) over price of m5\.large/,
    );
  });

  test('equal weights conflict even when they set the same value; a different weight never does', () => {
    const same = (name: string, weight: number): OverlayRule => ({
      name,
      weight,
      requirements: family('m5'),
      price: '0.01',
    });
    expect([...applyOverlays(types, [same('x', 1), same('y', 1)], 'default').conflicts.keys()]).toEqual(['x']);
    expect(applyOverlays(types, [same('x', 1), same('y', 2)], 'default').conflicts.size).toBe(0);
  });

  test('capacity adds extended resources to capacity and allocatable', () => {
    const gpu: OverlayRule = { name: 'devices', requirements: family('c5'), capacity: { 'example.com/device': '2' } };
    const out = applyOverlays(types, [gpu], 'default').types.find((t) => t.name === 'c5.xlarge');
    expect(out?.capacity['example.com/device']).toBe('2');
    expect(out?.allocatable['example.com/device']).toBe('2');
    expect(
      applyOverlays(types, [gpu], 'default').types.find((t) => t.name === 'm5.large')?.capacity['example.com/device'],
    ).toBeUndefined();
  });

  test('for any overlays, a type no overlay selects keeps its prices, and prices never go negative', () => {
    const arbRule = fc.record({
      name: fc.constantFrom('a', 'b', 'c', 'd'),
      weight: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
      fam: fc.constantFrom('m5', 'c5'),
      adj: fc.constantFrom('-100%', '-10%', '+5%', '-0.5', '+0.01'),
    });
    fc.assert(
      fc.property(fc.array(arbRule, { maxLength: 5 }), (rs) => {
        const rules: OverlayRule[] = rs.map((r) => ({
          name: r.name,
          ...(r.weight ? { weight: r.weight } : {}),
          requirements: family(r.fam),
          priceAdjustment: r.adj,
        }));
        const out = applyOverlays(types, rules, 'default').types;
        for (const t of out) {
          for (const o of t.offerings) expect(o.price).toBeGreaterThanOrEqual(0);
          if (!rs.some((r) => t.name.startsWith(r.fam))) expect(t).toBe(types.find((x) => x.name === t.name));
        }
      }),
    );
  });
});
