/**
 * Test factories for the scheduling engine: partial objects merged over sensible defaults.
 */
import type { InstanceType, NodePool, Pod } from '../model.js';

let counter = 0;

/** A pod requesting `cpu` and `memory`, with spec overrides. */
export function makePod(
  opts: { name?: string; namespace?: string; cpu?: string; memory?: string; labels?: Record<string, string> } & Partial<
    Pod['spec']
  > = {},
): Pod {
  const { name, namespace, cpu, memory, labels, ...spec } = opts;
  counter++;
  const n = name ?? `pod-${String(counter).padStart(5, '0')}`;
  return {
    metadata: { name: n, namespace: namespace ?? 'default', uid: `uid-${n}`, labels: labels ?? {} },
    spec: {
      containers: [{ name: 'main', resources: { requests: { cpu: cpu ?? '1', memory: memory ?? '1Gi' } } }],
      ...spec,
    },
  };
}

/** An instance type with `cpu` cores and `memGi` GiB, offered on-demand in the given zones at `price`. */
export function makeInstanceType(opts: {
  name: string;
  cpu: number;
  memGi: number;
  price: number;
  zones?: string[];
  spotPrice?: number;
  arch?: string;
  pods?: number;
  labels?: Record<string, string>;
  extra?: Record<string, string>;
}): InstanceType {
  const zones = opts.zones ?? ['test-zone-a', 'test-zone-b', 'test-zone-c'];
  return {
    name: opts.name,
    labels: { 'kubernetes.io/arch': opts.arch ?? 'amd64', 'kubernetes.io/os': 'linux', ...opts.labels },
    capacity: { cpu: String(opts.cpu), memory: `${opts.memGi}Gi`, pods: String(opts.pods ?? 110), ...opts.extra },
    offerings: [
      ...zones.map((zone) => ({ zone, capacityType: 'on-demand' as const, price: opts.price, available: true })),
      ...(opts.spotPrice !== undefined
        ? zones.map((zone) => ({ zone, capacityType: 'spot' as const, price: opts.spotPrice ?? 0, available: true }))
        : []),
    ],
  };
}

/** A small catalog: sizes 1..64 cores, 4 GiB per core, price proportional to size. */
export function smallCatalog(): InstanceType[] {
  return [1, 2, 4, 8, 16, 32, 64].map((cpu) =>
    makeInstanceType({ name: `m.${cpu}x`, cpu, memGi: cpu * 4, price: cpu * 0.05 }),
  );
}

/** A NodePool with optional template fields. */
export function makeNodePool(
  opts: Partial<NodePool['template']> & { name?: string; weight?: number; limits?: NodePool['limits'] } = {},
): NodePool {
  const { name, weight, limits, ...template } = opts;
  return { name: name ?? 'default', weight, limits, template };
}
