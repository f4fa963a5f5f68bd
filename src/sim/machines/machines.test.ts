import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../clock/index.js';
import { FakeCloudProvider, fakeInstanceType } from '../../cloudprovider/fake/index.js';
import type { NodeClaim } from '../../cloudprovider/types.js';
import { effectiveKubeletConfig } from '../../providers/aws/bootstrap/index.js';
import { FakeProviderMachines } from './fake-provider-machines.js';
import { familyOfImage } from './sim-ec2-machines.js';

describe('machine sources', () => {
  it('reads the AMI family from EKS image names', () => {
    expect(familyOfImage('amazon-eks-node-al2023-x86_64-standard-1.32-v20250101')).toBe('AL2023');
    expect(familyOfImage('amazon-eks-arm64-node-1.32-v20250101')).toBe('AL2');
    expect(familyOfImage('bottlerocket-aws-k8s-1.32-x86_64-v1.30.0')).toBe('Bottlerocket');
    expect(familyOfImage('my-golden-image')).toBe('Custom');
  });

  it('turns the fake provider instances into machines whose userData registers the NodeClaim taints', async () => {
    const clock = new FakeClock(0);
    const provider = new FakeCloudProvider({
      instanceTypes: [
        fakeInstanceType({
          name: 'm5.large',
          cpu: 2,
          memoryGi: 8,
          pods: 29,
          offerings: [{ zone: 'us-west-2a', capacityType: 'on-demand', price: 0.096 }],
        }),
      ],
    });
    const claim: NodeClaim = {
      metadata: { name: 'default-abc', labels: { 'karpenter.sh/nodepool': 'default' } },
      spec: {
        nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
        requirements: [],
        taints: [{ key: 'team', value: 'a', effect: 'NoSchedule' }],
      },
    };
    const source = new FakeProviderMachines({ provider, clock });
    let changes = 0;
    source.subscribe(() => changes++);
    source.start();
    await provider.create(claim);
    clock.advance(1000);
    expect(changes).toBe(1);
    const [m] = source.list();
    expect(m?.instanceType).toBe('m5.large');
    expect(m?.zone).toBe('us-west-2a');
    const config = effectiveKubeletConfig(m?.userData ?? '', 'AL2023');
    expect(config.joins).toBe(true);
    expect(config.taints.map((t) => t.key).sort()).toEqual(['karpenter.sh/unregistered', 'team']);
    source.stop();
  });
});
