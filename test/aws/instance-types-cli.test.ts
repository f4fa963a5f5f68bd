import { describe, expect, it } from 'vitest';
import { formatTable, listInstanceTypes } from '../../src/cli/commands/instance-types.js';

describe('tenon instance-types', () => {
  it('lists the types a NodePool allows with capacity and allocatable as quantities', async () => {
    const result = await listInstanceTypes({
      nodePool: {
        metadata: { name: 'general' },
        spec: {
          template: {
            spec: {
              nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'default' },
              requirements: [{ key: 'karpenter.k8s.aws/instance-family', operator: 'In', values: ['m5'] }],
            },
          },
        },
      },
    });
    if (!result.ok) throw new Error(result.message);
    expect(result.types.map((t) => t.name)).toContain('m5.large');
    expect(result.types.every((t) => t.name.startsWith('m5.'))).toBe(true);
    const m5 = result.types.find((t) => t.name === 'm5.large');
    expect(m5?.allocatable).toMatchObject({ cpu: '1930m', memory: '6903Mi', pods: '29' });
    const table = formatTable(result.types);
    expect(table[0]).toMatch(/^NAME\s+ARCH\s+GPU\s+ZONES\s+CAPACITY TYPES/);
    expect(table.find((l) => l.startsWith('m5.large '))).toContain('on-demand,spot');
  });

  it('explains a NodeClass that selects nothing in the simulated account', async () => {
    const result = await listInstanceTypes({
      nodeClass: {
        metadata: { name: 'x' },
        spec: {
          role: 'KarpenterNodeRole-tenon',
          amiSelectorTerms: [{ alias: 'al2023@latest' }],
          subnetSelectorTerms: [{ id: 'subnet-123' }],
          securityGroupSelectorTerms: [{ tags: { 'karpenter.sh/discovery': 'tenon' } }],
        },
      },
    });
    expect(result).toMatchObject({ ok: false });
    expect(!result.ok && result.message).toContain(
      'SubnetSelector did not match any Subnets: no subnet matched [id subnet-123]',
    );
  });
});
