/**
 * Capacity reservations (Karpenter's ReservedCapacity): `capacityReservationSelectorTerms` resolved into
 * `status.capacityReservations` and CapacityReservationsReady, reserved offerings priced near zero, launches that
 * target the reservation and carry its labels, and the fall back to on-demand once the reservation is full.
 */
import { describe, expect, it } from 'vitest';
import { InsufficientCapacityError } from '../../src/cloudprovider/index.js';
import { nodeClaim, nodeClass, nodePool, world, type World } from './setup.js';

const zone = 'us-east-1a';
const reservedOrOnDemand = {
  key: 'karpenter.sh/capacity-type',
  operator: 'In' as const,
  values: ['reserved', 'on-demand'],
};
const onlyTypes = (...types: string[]) => [
  { key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: types },
];
const claim = () => nodeClaim([...onlyTypes('m5.large', 'm5.xlarge'), reservedOrOnDemand]);

function condition(status: { conditions?: Array<{ type: string; status: string }> } | undefined) {
  return status?.conditions?.find((c) => c.type === 'CapacityReservationsReady');
}

async function reservedWorld(
  count: number,
  extra: Parameters<World['sim']['createCapacityReservation']>[0] | object = {},
) {
  const w = world();
  const id = w.sim.createCapacityReservation({ instanceType: 'm5.large', zone, count, tags: { team: 'ml' }, ...extra });
  await w.apply(nodeClass('default', { capacityReservationSelectorTerms: [{ tags: { team: 'ml' } }] }));
  return { w, id };
}

function templateOf(w: World, instanceId: string | undefined) {
  const instance = w.sim.listInstances().find((i) => i.instanceId === instanceId);
  return w.sim.account.launchTemplates.get(instance?.launchTemplateName ?? '');
}

const instanceIdOf = (providerID: string | undefined): string | undefined => providerID?.split('/').pop();

describe('capacityReservationSelectorTerms', () => {
  it('resolves reservations by tags and by id into status, with CapacityReservationsReady', async () => {
    const w = world();
    const byTag = w.sim.createCapacityReservation({ instanceType: 'm5.large', zone, count: 2, tags: { team: 'ml' } });
    const block = w.sim.createCapacityReservation({
      instanceType: 'p5.48xlarge',
      zone,
      count: 1,
      reservationType: 'capacity-block',
      instanceMatchCriteria: 'targeted',
      endDate: new Date(w.clock.now() + 24 * 3_600_000),
    });
    w.sim.createCapacityReservation({ instanceType: 'c5.large', zone, count: 1, tags: { team: 'web' } });
    const stored = await w.apply(
      nodeClass('default', { capacityReservationSelectorTerms: [{ tags: { team: 'ml' } }, { id: block }] }),
    );
    expect(condition(stored.status)?.status).toBe('True');
    expect(stored.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    const listed = stored.status?.capacityReservations ?? [];
    expect(listed.map((r) => r.id)).toEqual([byTag, block].sort());
    expect(listed.find((r) => r.id === byTag)).toEqual({
      id: byTag,
      instanceType: 'm5.large',
      availabilityZone: zone,
      ownerID: '123456789012',
      instanceMatchCriteria: 'targeted',
      reservationType: 'default',
      state: 'active',
      interruptible: false,
    });
    expect(listed.find((r) => r.id === block)).toMatchObject({ reservationType: 'capacity-block', state: 'active' });
    expect(listed.find((r) => r.id === block)?.endTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  it('selects nothing (and stays Ready) for an unknown id, a cancelled reservation or another match criteria', async () => {
    const w = world();
    const cancelled = w.sim.createCapacityReservation({ instanceType: 'm5.large', zone, count: 1 });
    w.sim.cancelCapacityReservation(cancelled);
    w.sim.createCapacityReservation({ instanceType: 'm5.large', zone, count: 1, instanceMatchCriteria: 'targeted' });
    const stored = await w.apply(
      nodeClass('default', {
        capacityReservationSelectorTerms: [
          { id: 'cr-0000000000000000' },
          { id: cancelled },
          { instanceMatchCriteria: 'open' },
        ],
      }),
    );
    expect(stored.status?.capacityReservations).toBeUndefined();
    expect(condition(stored.status)?.status).toBe('True');
  });

  it('marks a capacity block within 40 minutes of its end as expiring, and offers it no more', async () => {
    const w = world();
    const id = w.sim.createCapacityReservation({
      instanceType: 'm5.large',
      zone,
      count: 2,
      reservationType: 'capacity-block',
      endDate: new Date(w.clock.now() + 39 * 60_000),
    });
    const stored = await w.apply(nodeClass('default', { capacityReservationSelectorTerms: [{ id }] }));
    expect(stored.status?.capacityReservations?.[0]?.state).toBe('expiring');
    const m5 = (await w.provider.getInstanceTypes(nodePool())).find((t) => t.name === 'm5.large');
    expect(m5?.offerings.find((o) => o.reservationId === id)?.available).toBe(false);
  });
});

describe('reserved offerings and launches', () => {
  it('offers the reservation at the on-demand price over 10,000,000, in its zone', async () => {
    const { w, id } = await reservedWorld(2);
    const m5 = (await w.provider.getInstanceTypes(nodePool())).find((t) => t.name === 'm5.large');
    const reserved = m5?.offerings.find((o) => o.capacityType === 'reserved');
    const onDemand = m5?.offerings.find((o) => o.capacityType === 'on-demand');
    expect(reserved).toMatchObject({ zone, reservationId: id, available: true });
    expect(reserved?.price).toBeCloseTo((onDemand?.price ?? 0) / 10_000_000, 12);
    expect(m5?.requirements.find((r) => r.key === 'karpenter.sh/capacity-type')?.values).toContain('reserved');
  });

  it('launches into the reservation first, labelled reserved, then falls back to on-demand when it is full', async () => {
    const { w, id } = await reservedWorld(2);
    const launched = [];
    for (let i = 0; i < 3; i++) launched.push(await w.provider.create(claim()));
    const labels = launched.map((c) => c.metadata.labels ?? {});
    expect(labels.map((l) => l['karpenter.sh/capacity-type'])).toEqual(['reserved', 'reserved', 'on-demand']);
    expect(labels[0]).toMatchObject({
      'karpenter.k8s.aws/capacity-reservation-id': id,
      'karpenter.k8s.aws/capacity-reservation-type': 'default',
      'karpenter.k8s.aws/capacity-reservation-interruptible': 'false',
      'node.kubernetes.io/instance-type': 'm5.large',
    });
    expect(labels[2]?.['karpenter.k8s.aws/capacity-reservation-id']).toBeUndefined();
    const reservedInstance = instanceIdOf(launched[0]?.status?.providerID);
    expect(w.sim.getInstance(reservedInstance ?? '')?.capacityReservationId).toBe(id);
    expect(templateOf(w, reservedInstance)?.capacityReservation).toEqual({
      preference: 'capacity-reservations-only',
      reservationId: id,
    });
    // Karpenter's targeted mode: an on-demand launch stays out of open reservations.
    expect(templateOf(w, instanceIdOf(launched[2]?.status?.providerID))?.capacityReservation).toEqual({
      preference: 'none',
    });
    // Get reads the reservation back from the instance.
    expect(
      (await w.provider.get(launched[0]?.status?.providerID ?? '')).metadata.labels?.['karpenter.sh/capacity-type'],
    ).toBe('reserved');
  });

  it('gives a terminated instance slot back to the reservation', async () => {
    const { w, id } = await reservedWorld(1);
    const first = await w.provider.create(claim());
    await w.provider.delete(first);
    w.clock.advance(10_000);
    const next = await w.provider.create(claim());
    expect(next.metadata.labels?.['karpenter.k8s.aws/capacity-reservation-id']).toBe(id);
  });

  it('on ReservationCapacityExceeded counts the reservation full, and the retry launches on-demand', async () => {
    const { w, id } = await reservedWorld(1);
    // Someone else took the last slot since the class was resolved.
    w.sim.occupyCapacityReservation(id, 1);
    const failure = await w.provider.create(claim()).catch((e: unknown) => e);
    expect(InsufficientCapacityError.is(failure)).toBe(true);
    expect(String(failure)).toContain('ReservationCapacityExceeded');
    const retry = await w.provider.create(claim());
    expect(retry.metadata.labels?.['karpenter.sh/capacity-type']).toBe('on-demand');
  });

  it('launches a capacity block and an interruptible reservation with their market types', async () => {
    const w = world();
    const block = w.sim.createCapacityReservation({
      instanceType: 'm5.large',
      zone,
      count: 1,
      reservationType: 'capacity-block',
      endDate: new Date(w.clock.now() + 24 * 3_600_000),
    });
    const interruptible = w.sim.createCapacityReservation({
      instanceType: 'm5.xlarge',
      zone,
      count: 1,
      interruptible: true,
    });
    await w.apply(nodeClass('default', { capacityReservationSelectorTerms: [{ id: block }, { id: interruptible }] }));
    const a = await w.provider.create(nodeClaim([...onlyTypes('m5.large'), reservedOrOnDemand]));
    const b = await w.provider.create(nodeClaim([...onlyTypes('m5.xlarge'), reservedOrOnDemand]));
    expect(a.metadata.labels?.['karpenter.k8s.aws/capacity-reservation-type']).toBe('capacity-block');
    expect(templateOf(w, instanceIdOf(a.status?.providerID))?.capacityReservation?.marketType).toBe('capacity-block');
    expect(b.metadata.labels?.['karpenter.k8s.aws/capacity-reservation-interruptible']).toBe('true');
    expect(templateOf(w, instanceIdOf(b.status?.providerID))?.capacityReservation?.marketType).toBe(
      'interruptible-capacity-reservation',
    );
  });

  it('launches on-demand when the NodeClaim does not allow reserved, or asks for another reservation', async () => {
    const { w } = await reservedWorld(2);
    const onDemandOnly = await w.provider.create(
      nodeClaim([
        ...onlyTypes('m5.large'),
        { key: 'karpenter.sh/capacity-type', operator: 'In', values: ['on-demand'] },
      ]),
    );
    expect(onDemandOnly.metadata.labels?.['karpenter.sh/capacity-type']).toBe('on-demand');
    const other = { key: 'karpenter.k8s.aws/capacity-reservation-id', operator: 'In' as const, values: ['cr-0abc'] };
    await expect(w.provider.create(nodeClaim([...onlyTypes('m5.large'), other]))).rejects.toThrow(
      /no instance type satisfies/,
    );
  });

  it('with the ReservedCapacity gate off: no condition, no reserved offerings, templates say nothing', async () => {
    const w = world({ reservedCapacity: false });
    w.sim.createCapacityReservation({ instanceType: 'm5.large', zone, count: 2, tags: { team: 'ml' } });
    const stored = await w.apply(
      nodeClass('default', { capacityReservationSelectorTerms: [{ tags: { team: 'ml' } }] }),
    );
    expect(condition(stored.status)).toBeUndefined();
    expect(stored.status?.capacityReservations).toBeUndefined();
    const created = await w.provider.create(claim());
    expect(created.metadata.labels?.['karpenter.sh/capacity-type']).toBe('on-demand');
    expect(templateOf(w, instanceIdOf(created.status?.providerID))?.capacityReservation).toBeUndefined();
  });
});
