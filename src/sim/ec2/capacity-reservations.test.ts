/** The simulated account's capacity reservations, drawn on by CreateFleet as EC2 draws on them. */
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock/index.js';
import type { LaunchCapacityReservation } from '../../providers/aws/ports/index.js';
import { SimEc2 } from './sim-ec2.js';

const zone = 'us-east-1a';

async function launch(sim: SimEc2, capacityReservation?: LaunchCapacityReservation) {
  const image = (await sim.describeImages({ owners: ['amazon'] })).find((i) => i.architecture === 'x86_64');
  const name = `lt-${JSON.stringify(capacityReservation ?? {})}`;
  if (!sim.launchTemplateNames().includes(name))
    await sim.createLaunchTemplate({
      name,
      imageId: image?.imageId ?? '',
      userData: '',
      securityGroupIds: [],
      instanceProfileName: 'p',
      blockDeviceMappings: [],
      metadataOptions: {
        httpEndpoint: 'enabled',
        httpTokens: 'required',
        httpPutResponseHopLimit: 1,
        httpProtocolIpv6: 'disabled',
      },
      tags: {},
      ...(capacityReservation ? { capacityReservation } : {}),
    });
  const subnet = (await sim.describeSubnets([])).find((s) => s.zone === zone);
  return sim.createFleet({
    capacityType: 'on-demand',
    allocationStrategy: 'lowest-price',
    overrides: [{ launchTemplateName: name, instanceType: 'm5.large', subnetId: subnet?.subnetId ?? '', zone }],
    tags: {},
  });
}

describe('simulated capacity reservations', () => {
  it('an open reservation takes untargeted on-demand launches of its type and zone until full', async () => {
    const sim = new SimEc2({ seed: 3, clock: new FakeClock() });
    const id = sim.createCapacityReservation({
      instanceType: 'm5.large',
      zone,
      count: 1,
      instanceMatchCriteria: 'open',
    });
    const first = await launch(sim);
    const second = await launch(sim);
    expect(first.instances[0]?.capacityReservationId).toBe(id);
    expect(second.instances[0]?.capacityReservationId).toBeUndefined();
    expect(second.instances).toHaveLength(1);
    // Opting out keeps a launch out of it even with room.
    sim.createCapacityReservation({ instanceType: 'm5.large', zone, count: 1, instanceMatchCriteria: 'open' });
    expect((await launch(sim, { preference: 'none' })).instances[0]?.capacityReservationId).toBeUndefined();
  });

  it('a targeted reservation takes only launches that target it, refusing them when full; a slot returns on termination', async () => {
    const clock = new FakeClock();
    const sim = new SimEc2({ seed: 3, clock });
    const id = sim.createCapacityReservation({ instanceType: 'm5.large', zone, count: 1 });
    expect((await launch(sim)).instances[0]?.capacityReservationId).toBeUndefined();
    const target: LaunchCapacityReservation = { preference: 'capacity-reservations-only', reservationId: id };
    const inside = await launch(sim, target);
    expect(inside.instances[0]?.capacityReservationId).toBe(id);
    const full = await launch(sim, target);
    expect(full.instances).toEqual([]);
    expect(full.errors.map((e) => e.code)).toEqual(['ReservationCapacityExceeded']);
    const [described] = await sim.describeCapacityReservations({ ids: [id] });
    expect(described).toMatchObject({ availableInstanceCount: 0, totalInstanceCount: 1, state: 'active' });
    await sim.terminateInstances([inside.instances[0]?.instanceId ?? '']);
    clock.advance(10_000);
    expect((await sim.describeCapacityReservations({ ids: [id] }))[0]?.availableInstanceCount).toBe(1);
  });

  it('describes by filters, expires reservations past their end, and answers NotFound for an unknown id', async () => {
    const clock = new FakeClock();
    const sim = new SimEc2({ seed: 3, clock });
    const id = sim.createCapacityReservation({
      instanceType: 'm5.large',
      zone,
      count: 1,
      tags: { team: 'ml' },
      endDate: new Date(clock.now() + 60_000),
    });
    const byTag = await sim.describeCapacityReservations({ filters: [{ name: 'tag:team', values: ['ml'] }] });
    expect(byTag.map((r) => r.capacityReservationId)).toEqual([id]);
    clock.advance(61_000);
    const active = await sim.describeCapacityReservations({ filters: [{ name: 'state', values: ['active'] }] });
    expect(active).toEqual([]);
    await expect(sim.describeCapacityReservations({ ids: ['cr-00000000'] })).rejects.toThrow(
      /InvalidCapacityReservationId.NotFound/,
    );
  });
});
