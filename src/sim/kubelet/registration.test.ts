import { describe, expect, it } from 'vitest';
import { effectiveKubeletConfig } from '../../providers/aws/bootstrap/index.js';
import type { Machine } from '../machines/machine.js';
import { registrationNode } from './registration.js';
import { s2UserData, s3UserData } from '../../../test/sim/field-userdata.js';

const machine = (userData: string, amiFamily: Machine['amiFamily']): Machine => ({
  providerID: 'aws:///us-west-2a/i-0abc',
  instanceId: 'i-0abc',
  nodeName: 'ip-10-0-1-2.us-west-2.compute.internal',
  instanceType: 'm5.large',
  zone: 'us-west-2a',
  region: 'us-west-2',
  arch: 'amd64',
  os: 'linux',
  capacity: { cpu: '2', memory: '8Gi', pods: '29' },
  userData,
  amiFamily,
  launchTime: 0,
  state: 'running',
  vcpus: 2,
  eniMaxPods: 29,
});

describe('kubelet registration', () => {
  it('S2: the cilium flag replaces the registration taint; the CCM taint is added for --cloud-provider=external', () => {
    const m = machine(s2UserData, 'AL2023');
    const node = registrationNode(
      m,
      effectiveKubeletConfig(m.userData, m.amiFamily, { vcpus: 2, eniMaxPods: 29 }),
      '2026-01-01T00:00:00Z',
    );
    expect(node.spec?.taints).toEqual([
      { key: 'node.cilium.io/agent-not-ready', value: 'true', effect: 'NoExecute' },
      { key: 'node.cloudprovider.kubernetes.io/uninitialized', value: 'true', effect: 'NoSchedule' },
    ]);
    expect(node.metadata.labels).toMatchObject({
      'karpenter.sh/nodepool': 'default',
      'kubernetes.io/hostname': m.nodeName,
      'node.kubernetes.io/instance-type': 'm5.large',
      'topology.kubernetes.io/zone': 'us-west-2a',
    });
    expect(node.spec?.providerID).toBe(m.providerID);
    expect(node.status?.capacity?.pods).toBe('29');
  });

  it('S3: the one-word --kubelet-extra-args= form loses the registration taint and the labels', () => {
    const m = machine(s3UserData, 'Custom');
    const config = effectiveKubeletConfig(m.userData, m.amiFamily, { vcpus: 2, eniMaxPods: 29 });
    const node = registrationNode(m, config, '2026-01-01T00:00:00Z');
    expect(node.spec?.taints?.map((t) => t.key)).not.toContain('karpenter.sh/unregistered');
    expect(node.metadata.labels?.['karpenter.sh/nodepool']).toBeUndefined();
  });

  it('allocatable is capacity minus the EKS reservations', () => {
    const m = machine('', 'AL2023');
    const node = registrationNode(m, effectiveKubeletConfig('', 'AL2023', { vcpus: 2, eniMaxPods: 29 }), 'x');
    // kube-reserved 70m cpu for 2 vCPUs; memory 11*29+255 = 574Mi plus the 100Mi hard eviction threshold.
    expect(node.status?.allocatable?.cpu).toBe('1930m');
    expect(node.status?.allocatable?.memory).toBe(`${8 * 1024 - 574 - 100}Mi`);
  });
});
