/** Resolves subnetSelectorTerms and securityGroupSelectorTerms through DescribeSubnets / DescribeSecurityGroups. */
import type { SecurityGroupSelectorTerm, SubnetSelectorTerm } from '../../../api/index.js';
import type { TtlCache } from '../cache/ttl-cache.js';
import type { AwsPort, Filter, SecurityGroupInfo, SubnetInfo } from '../ports/index.js';
import { tagFilters } from './selectors.js';

/** Subnets matching any term, most free IPs first (the first subnet of a zone is the one launches use). */
export async function resolveSubnets(
  port: AwsPort,
  cache: TtlCache<SubnetInfo[]>,
  terms: SubnetSelectorTerm[],
): Promise<SubnetInfo[]> {
  const byId = new Map<string, SubnetInfo>();
  for (const term of terms) {
    const filters: Filter[] = term.id ? [{ name: 'subnet-id', values: [term.id] }] : tagFilters(term.tags);
    const found = await cache.getOrLoad(JSON.stringify(filters), () => port.describeSubnets(filters));
    for (const s of found) byId.set(s.subnetId, s);
  }
  return [...byId.values()].sort(
    (a, b) => b.availableIpAddressCount - a.availableIpAddressCount || a.subnetId.localeCompare(b.subnetId),
  );
}

/** Security groups matching any term, by id. */
export async function resolveSecurityGroups(
  port: AwsPort,
  cache: TtlCache<SecurityGroupInfo[]>,
  terms: SecurityGroupSelectorTerm[],
): Promise<SecurityGroupInfo[]> {
  const byId = new Map<string, SecurityGroupInfo>();
  for (const term of terms) {
    const filters: Filter[] = term.id
      ? [{ name: 'group-id', values: [term.id] }]
      : term.name
        ? [{ name: 'group-name', values: [term.name] }]
        : tagFilters(term.tags);
    const found = await cache.getOrLoad(JSON.stringify(filters), () => port.describeSecurityGroups(filters));
    for (const g of found) byId.set(g.groupId, g);
  }
  return [...byId.values()].sort((a, b) => a.groupId.localeCompare(b.groupId));
}
