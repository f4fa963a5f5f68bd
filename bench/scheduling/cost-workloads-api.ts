/**
 * Cost workloads of the Karpenter v1.15 APIs that change what is bought: NodeOverlays (a price overlay that makes a
 * dearer family the cheapest choice; a capacity overlay adding an extended resource some pods need) and
 * CapacityBuffers (headroom as virtual pods after the real ones). Both go through production's code: overlays through
 * `applyOverlays` (as the OverlaidCloudProvider gives every NodePool its overlaid types), buffers through
 * `resolveBuffer` and `virtualPods` (as provisioning adds them), so the solve, Karpenter's FFD and the lower bound all
 * see the overlaid prices and the buffer's pods.
 */
import type { CapacityBuffer } from '../../src/api/index.js';
import { applyOverlays, type OverlayRule } from '../../src/cloudprovider/overlay/apply.js';
import type { InstanceType as ProviderInstanceType } from '../../src/cloudprovider/index.js';
import { resolveBuffer, virtualPods, type BufferSource } from '../../src/controllers/capacitybuffer/resolve.js';
import type { InstanceType, Pod, SchedulingInput } from '../../src/scheduling/index.js';

/** What a workload builder needs from the suite's shared pieces. */
export interface ApiWorkloadKit {
  /** A pod with these requests (and extra resources). */
  pod: (cpu: string, memory: string, extra?: Record<string, string>) => Pod;
  many: (n: number, make: () => Pod) => Pod[];
  /** The suite's input: Karpenter's general-purpose NodePool over the real catalog. */
  input: (pods: Pod[], seed: number) => SchedulingInput;
}

const noOverhead = { kubeReserved: {}, systemReserved: {}, evictionThreshold: {} };

/** The suite's types through production's overlay code, for the NodePool `pool`. */
export function overlaid(types: readonly InstanceType[], rules: OverlayRule[], pool: string): InstanceType[] {
  // The suite's types already carry their allocatable: as provider types they have no separate overhead.
  const asProvider: ProviderInstanceType[] = types.map((t) => ({
    name: t.name,
    labels: t.labels ?? {},
    requirements: t.requirements ?? [],
    capacity: t.capacity,
    overhead: noOverhead,
    allocatable: t.allocatable ?? t.capacity,
    offerings: t.offerings,
  }));
  return applyOverlays(asProvider, rules, pool).types.map((t) => ({
    name: t.name,
    labels: t.labels,
    requirements: t.requirements,
    capacity: t.capacity,
    allocatable: t.allocatable,
    offerings: t.offerings,
  }));
}

/** The NodeOverlay of the price workload: a savings plan taking 45% off the m7i family. */
export const priceOverlay: OverlayRule = {
  name: 'savings-plan-m7i',
  weight: 10,
  requirements: [{ key: 'karpenter.k8s.aws/instance-family', operator: 'In', values: ['m7i'] }],
  priceAdjustment: '-45%',
};

/** The NodeOverlay of the capacity workload: two licence seats on every c7i node. */
export const capacityOverlay: OverlayRule = {
  name: 'licence-c7i',
  weight: 10,
  requirements: [{ key: 'karpenter.k8s.aws/instance-family', operator: 'In', values: ['c7i'] }],
  capacity: { 'example.com/licence': '2' },
};

/** What the buffer controller finds for the Deployment a buffer scales with: `replicas` pods of one shape. */
function deployment(replicas: number, template: Pod): BufferSource {
  return {
    ok: true,
    template: { metadata: { labels: { app: 'web' } }, spec: template.spec },
    scalableReplicas: replicas,
  };
}

/** A CapacityBuffer keeping `percentage`% of the Deployment `web` as headroom. */
function buffer(percentage: number): CapacityBuffer {
  return {
    apiVersion: 'autoscaling.x-k8s.io/v1beta1',
    kind: 'CapacityBuffer',
    metadata: { name: 'web-headroom', namespace: 'default' },
    spec: { scalableRef: { apiGroup: 'apps', kind: 'Deployment', name: 'web' }, percentage },
  };
}

/** The buffer's virtual pods for the Deployment, through production's resolver. */
export function bufferedPods(real: Pod[], percentage: number): Pod[] {
  const shape = real[0];
  if (!shape) return [];
  const b = buffer(percentage);
  const resolved = resolveBuffer(b, deployment(real.length, shape));
  if (!resolved.ok) throw new Error(`capacity buffer does not resolve: ${resolved.message}`);
  return virtualPods(b, resolved);
}

/** The NodeOverlay and CapacityBuffer workloads. */
export function apiWorkloads(kit: ApiWorkloadKit): Array<{
  name: string;
  pods: number;
  build: (pods: number, seed: number) => SchedulingInput;
}> {
  const { pod, many, input } = kit;
  return [
    {
      name: 'overlay-price',
      pods: 200,
      build: (n, s) => {
        const base = input(
          many(n, () => pod('1', '4Gi')),
          s,
        );
        return { ...base, instanceTypes: overlaid(base.instanceTypes, [priceOverlay], 'default') };
      },
    },
    {
      name: 'overlay-capacity',
      pods: 200,
      build: (n, s) => {
        const licensed = many(Math.floor(n / 4), () => pod('1', '2Gi', { 'example.com/licence': '1' }));
        const base = input([...licensed, ...many(n - licensed.length, () => pod('1', '2Gi'))], s);
        return { ...base, instanceTypes: overlaid(base.instanceTypes, [capacityOverlay], 'default') };
      },
    },
    {
      name: 'capacity-buffer',
      pods: 200,
      build: (n, s) => {
        // The pod count is the Deployment's; the buffer adds 20% of it as virtual pods, after the real ones.
        const real = many(n, () => pod('500m', '1Gi'));
        return input([...real, ...bufferedPods(real, 20)], s);
      },
    },
  ];
}
