/** A provisioning pass plans no more NodeClaims into a capacity reservation than it has room for. */
import { describe, expect, it } from 'vitest';
import type { InstanceType } from '../../cloudprovider/index.js';
import type { NewNodeClaim } from '../../scheduling/index.js';
import { withinReservations } from './reservations.js';

const m5: InstanceType = {
  name: 'm5.large',
  labels: {},
  requirements: [],
  capacity: { cpu: '2' },
  overhead: { kubeReserved: {}, systemReserved: {}, evictionThreshold: {} },
  allocatable: { cpu: '2' },
  offerings: [
    { zone: 'a', capacityType: 'on-demand', price: 0.096, available: true },
    {
      zone: 'a',
      capacityType: 'reserved',
      price: 0.0000000096,
      available: true,
      reservationId: 'cr-1',
      reservationCapacity: 2,
    },
  ],
};

function planned(capacityType: string, n: number): NewNodeClaim {
  return {
    nodePool: 'default',
    requirements: [{ key: 'karpenter.sh/capacity-type', operator: 'In', values: ['reserved', 'on-demand'] }],
    instanceTypeOptions: ['m5.large'],
    cheapest: { instanceType: 'm5.large', zone: 'a', capacityType, price: capacityType === 'reserved' ? 1e-8 : 0.096 },
    pods: [`default/p-${n}`],
    requests: { cpu: '1' },
    taints: [],
    labels: {},
  };
}

const offReserved = { key: 'karpenter.sh/capacity-type', operator: 'NotIn', values: ['reserved'] };

describe('withinReservations', () => {
  it('keeps the first NodeClaims up to the room and keeps the rest off reserved capacity', () => {
    const out = withinReservations(
      [
        planned('reserved', 1),
        planned('on-demand', 2),
        planned('reserved', 3),
        planned('reserved', 4),
        planned('reserved', 5),
      ],
      new Map([['default', [m5]]]),
    );
    const excluded = out.map((nc) => nc.requirements.some((r) => JSON.stringify(r) === JSON.stringify(offReserved)));
    expect(excluded).toEqual([false, false, false, true, true]);
    expect(out[3]?.requirements[0]).toEqual(planned('reserved', 4).requirements[0]);
  });

  it('leaves NodeClaims alone when the provider does not report the room', () => {
    const unknown = { ...m5, offerings: m5.offerings.map(({ reservationCapacity: _r, ...o }) => o) };
    const input = [planned('reserved', 1), planned('reserved', 2), planned('reserved', 3)];
    expect(withinReservations(input, new Map([['default', [unknown]]]))).toEqual(input);
  });
});
