import { afterEach, describe, expect, it } from 'vitest';
import type { Pod } from '../../src/kube/index.js';
import {
  SimResources,
  type CsiNode,
  type PersistentVolume,
  type PersistentVolumeClaim,
  type StatefulSet,
  type StorageClass,
  type VolumeAttachment,
} from '../../src/sim/world/resources.js';
import { machine, pods, startWorld, until, type SimHarness } from './harness.js';

let h: SimHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const storageClass = (name: string, mode: StorageClass['volumeBindingMode'], zones?: string[]): StorageClass => ({
  metadata: { name },
  provisioner: 'ebs.csi.aws.com',
  volumeBindingMode: mode,
  ...(zones
    ? { allowedTopologies: [{ matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: zones }] }] }
    : {}),
});

const claim = (name: string, sc: string): PersistentVolumeClaim => ({
  metadata: { name, namespace: 'default' },
  spec: { storageClassName: sc, accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '10Gi' } } },
});

const podWithClaim = (name: string, claimName: string): Pod => ({
  metadata: { name, namespace: 'default' },
  spec: {
    containers: [{ name: 'app', image: 'db' }],
    volumes: [{ name: 'data', persistentVolumeClaim: { claimName } }],
  },
});

const twoZones = (): ReturnType<typeof machine>[] => [machine('a'), machine('b', { zone: 'us-west-2b' })];

describe('simulated volumes', () => {
  it('binds an Immediate claim in an allowed zone, and the pod then must go to that zone', async () => {
    h = await startWorld({ machines: twoZones() });
    const world = h;
    await until(world, async () => (await world.client.list(SimResources.nodes)).items.length === 2, 120_000);
    await world.client.create(SimResources.storageClasses, storageClass('gp3', 'Immediate', ['us-west-2b']));
    await world.client.create(SimResources.persistentVolumeClaims, claim('data', 'gp3'));
    await world.client.create(SimResources.pods, podWithClaim('db', 'data'));
    // Until the volume exists the scheduler says why it cannot place the pod.
    await until(
      world,
      async () => (await pods(world))[0]?.status?.conditions?.some((c) => c.reason === 'Unschedulable') ?? false,
      5_000,
    );
    expect((await pods(world))[0]?.status?.conditions?.find((c) => c.type === 'PodScheduled')?.message).toMatch(
      /^0\/\d nodes are available: pod has unbound immediate PersistentVolumeClaims\./,
    );
    await until(world, async () => (await pods(world))[0]?.status?.phase === 'Running', 180_000);
    const bound = await world.client.get<PersistentVolumeClaim>(SimResources.persistentVolumeClaims, {
      name: 'data',
      namespace: 'default',
    });
    expect(bound.status?.phase).toBe('Bound');
    const pv = await world.client.get<PersistentVolume>(SimResources.persistentVolumes, {
      name: bound.spec.volumeName ?? '',
    });
    expect(pv.spec.nodeAffinity?.required?.nodeSelectorTerms[0]?.matchExpressions?.[0]).toEqual({
      key: 'topology.kubernetes.io/zone',
      operator: 'In',
      values: ['us-west-2b'],
    });
    expect((await pods(world))[0]?.spec.nodeName).toBe('ip-b.us-west-2.compute.internal');
    const attachments = (await world.client.list<VolumeAttachment>(SimResources.volumeAttachments)).items;
    expect(attachments.map((a) => [a.spec.nodeName, a.spec.source.persistentVolumeName, a.status?.attached])).toEqual([
      ['ip-b.us-west-2.compute.internal', pv.metadata.name, true],
    ]);
    const csi = await world.client.get<CsiNode>(SimResources.csiNodes, { name: 'ip-b.us-west-2.compute.internal' });
    expect(csi.spec.drivers[0]?.allocatable?.count).toBe(26);
  });

  it('provisions WaitForFirstConsumer claims of a StatefulSet in the zone of the node each pod was scheduled to', async () => {
    h = await startWorld({ machines: twoZones() });
    const world = h;
    await world.client.create(SimResources.storageClasses, storageClass('gp3-wffc', 'WaitForFirstConsumer'));
    const sts: StatefulSet = {
      metadata: { name: 'db', namespace: 'default' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'db' } },
        template: {
          metadata: { labels: { app: 'db' } },
          spec: { containers: [{ name: 'db', image: 'db' }], tolerations: [{ operator: 'Exists' }] },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: {
              storageClassName: 'gp3-wffc',
              accessModes: ['ReadWriteOnce'],
              resources: { requests: { storage: '1Gi' } },
            },
          },
        ],
      },
    };
    await world.client.create(SimResources.statefulSets, sts);
    await until(
      world,
      async () => (await pods(world)).filter((p) => p.status?.phase === 'Running').length === 2,
      300_000,
    );
    const names = (await pods(world)).map((p) => p.metadata.name).sort();
    expect(names).toEqual(['db-0', 'db-1']);
    for (const p of await pods(world)) {
      const pvc = await world.client.get<PersistentVolumeClaim>(SimResources.persistentVolumeClaims, {
        name: `data-${p.metadata.name ?? ''}`,
        namespace: 'default',
      });
      const pv = await world.client.get<PersistentVolume>(SimResources.persistentVolumes, {
        name: pvc.spec.volumeName ?? '',
      });
      const node = await world.client.get(SimResources.nodes, { name: p.spec.nodeName ?? '' });
      expect(pv.spec.nodeAffinity?.required?.nodeSelectorTerms[0]?.matchExpressions?.[0]?.values).toEqual([
        node.metadata.labels?.['topology.kubernetes.io/zone'],
      ]);
    }
  });
});
