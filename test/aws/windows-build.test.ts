/**
 * `node.kubernetes.io/windows-build`: Karpenter gives every instance type of a Windows AMI family its Windows
 * Server build (2019: 10.0.17763, 2022: 10.0.20348, 2025: 10.0.26100, pkg/apis/v1/labels.go in v1.15.1) and Linux
 * families none, so a pod selecting a build lands on a node of that Windows family and the node carries the label.
 */
import { describe, expect, it } from 'vitest';
import { familyWindowsBuild } from '../../src/providers/aws/instancetype/ami-family.js';
import { nodeClaim, nodeClass, nodePool, world } from './setup.js';

const build = 'node.kubernetes.io/windows-build';
const onDemandM5 = [
  { key: 'node.kubernetes.io/instance-type', operator: 'In' as const, values: ['m5.large'] },
  { key: 'karpenter.sh/capacity-type', operator: 'In' as const, values: ['on-demand'] },
];

describe('node.kubernetes.io/windows-build', () => {
  it('is the Windows Server build of each Windows family, and absent for Linux families', () => {
    expect(familyWindowsBuild('Windows2019')).toBe('10.0.17763');
    expect(familyWindowsBuild('Windows2022')).toBe('10.0.20348');
    expect(familyWindowsBuild('Windows2025')).toBe('10.0.26100');
    expect(familyWindowsBuild('AL2023')).toBeUndefined();
  });

  it.each([
    ['windows2022', '10.0.20348'],
    ['windows2025', '10.0.26100'],
  ])('%s: every instance type and the launched NodeClaim carry build %s', async (alias, value) => {
    const w = world();
    await w.apply(nodeClass('default', { amiSelectorTerms: [{ alias: `${alias}@latest` }] }));
    const types = await w.provider.getInstanceTypes(nodePool());
    expect(types.length).toBeGreaterThan(0);
    expect(types.every((t) => t.labels[build] === value)).toBe(true);
    const launched = await w.provider.create(
      nodeClaim([...onDemandM5, { key: build, operator: 'In', values: [value] }]),
    );
    expect(launched.metadata.labels?.[build]).toBe(value);
  });

  it('a Linux class has no build: a NodeClaim asking for one cannot launch', async () => {
    const w = world();
    await w.apply(nodeClass('default', {}));
    const types = await w.provider.getInstanceTypes(nodePool());
    expect(types.some((t) => build in t.labels)).toBe(false);
    await expect(
      w.provider.create(nodeClaim([...onDemandM5, { key: build, operator: 'In', values: ['10.0.20348'] }])),
    ).rejects.toThrow();
  });
});
