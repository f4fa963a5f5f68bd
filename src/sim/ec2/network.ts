/** The simulated account's VPC: subnets per zone and security groups, tagged as the EKS/Karpenter docs tag them. */
import type { SecurityGroupInfo, SubnetInfo } from '../../providers/aws/ports/index.js';
import type { SeededRandom } from './random.js';

/** The VPC's subnets and security groups. */
export interface SimNetwork {
  vpcId: string;
  subnets: SubnetInfo[];
  securityGroups: SecurityGroupInfo[];
}

/** `us-east-1` → `use1`, the prefix of the region's zone ids. */
function zoneIdPrefix(region: string): string {
  const [geo = '', direction = '', n = ''] = region.split('-');
  return `${geo}${direction.slice(0, 1)}${n}`;
}

/** Builds a VPC with one private (discovery-tagged) and one public subnet per zone, and three groups. */
export function buildNetwork(input: {
  clusterName: string;
  region: string;
  zones: readonly string[];
  random: SeededRandom;
}): SimNetwork {
  const { clusterName, random } = input;
  const vpcId = `vpc-${random.hex(17)}`;
  const subnets: SubnetInfo[] = [];
  input.zones.forEach((zone, i) => {
    const zoneId = `${zoneIdPrefix(input.region)}-az${i + 1}`;
    subnets.push({
      subnetId: `subnet-${random.hex(17)}`,
      vpcId,
      zone,
      zoneId,
      availableIpAddressCount: 4000 + Math.floor(random.next() * 4000),
      tags: {
        Name: `${clusterName}-private-${zone}`,
        'karpenter.sh/discovery': clusterName,
        'kubernetes.io/role/internal-elb': '1',
      },
    });
    subnets.push({
      subnetId: `subnet-${random.hex(17)}`,
      vpcId,
      zone,
      zoneId,
      availableIpAddressCount: 200 + Math.floor(random.next() * 50),
      tags: { Name: `${clusterName}-public-${zone}`, 'kubernetes.io/role/elb': '1' },
    });
  });
  const securityGroups: SecurityGroupInfo[] = [
    {
      groupId: `sg-${random.hex(17)}`,
      groupName: `eks-cluster-sg-${clusterName}-${random.hex(8)}`,
      vpcId,
      tags: { [`kubernetes.io/cluster/${clusterName}`]: 'owned', 'aws:eks:cluster-name': clusterName },
    },
    {
      groupId: `sg-${random.hex(17)}`,
      groupName: `${clusterName}-node`,
      vpcId,
      tags: { Name: `${clusterName}-node`, 'karpenter.sh/discovery': clusterName },
    },
    { groupId: `sg-${random.hex(17)}`, groupName: 'default', vpcId, tags: {} },
  ];
  return { vpcId, subnets, securityGroups };
}
