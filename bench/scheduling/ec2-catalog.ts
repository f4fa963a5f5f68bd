/**
 * The real EC2 catalog (data/aws-instance-types.json, us-east-1) as scheduling instance types: on-demand offerings at
 * the published price in each zone, and spot offerings priced by a seeded model — a stable discount per instance
 * type and zone, uniformly 50–80% below on-demand (data/README.md: there are no spot prices in the catalog).
 * Types without a public on-demand price are not offered.
 */
import type { InstanceType } from '../../src/scheduling/index.js';
import { loadCatalog } from '../../src/sim/ec2/catalog.js';

/** FNV-1a of a string, as a float in [0, 1): the seeded spot model's randomness. */
function hash01(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h / 4294967296;
}

/** The spot price of `type` in `zone`: 50–80% below on-demand, stable for a seed. */
export function spotPrice(onDemand: number, type: string, zone: string, seed: number): number {
  const discount = 0.5 + 0.3 * hash01(`${seed}/${type}/${zone}`);
  return Number((onDemand * (1 - discount)).toFixed(6));
}

/** The zones of us-east-1 used by the suite (3 to 6). */
export function zones(n: number): string[] {
  return ['us-east-1a', 'us-east-1b', 'us-east-1c', 'us-east-1d', 'us-east-1e', 'us-east-1f'].slice(
    0,
    Math.max(3, Math.min(6, n)),
  );
}

/** The catalog as instance types offered in `zoneCount` zones, on-demand and spot. */
export function ec2InstanceTypes(opts: { zoneCount: number; seed: number }): InstanceType[] {
  const zs = zones(opts.zoneCount);
  const out: InstanceType[] = [];
  for (const e of loadCatalog()) {
    const od = e.onDemandPriceUSD;
    if (od === null) continue;
    out.push({
      name: e.name,
      labels: { ...e.labels, 'node.kubernetes.io/instance-type': e.name },
      capacity: {
        cpu: String(e.vcpu),
        memory: `${e.memoryMiB}Mi`,
        pods: e.allocatable['pods'] ?? '110',
        ...pick(e.allocatable),
      },
      allocatable: e.allocatable,
      offerings: zs.flatMap((zone) => [
        { zone, capacityType: 'on-demand' as const, price: od, available: true },
        { zone, capacityType: 'spot' as const, price: spotPrice(od, e.name, zone, opts.seed), available: true },
      ]),
    });
  }
  return out;
}

/** Extended resources count fully as capacity. */
function pick(alloc: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(alloc)) if (k.includes('/')) out[k] = v;
  return out;
}
