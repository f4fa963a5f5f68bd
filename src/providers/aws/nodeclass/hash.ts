/** The EC2NodeClass hash behind static drift, and other stable hashes the provider names things with. */
// Version history: tenon-v1 hashed the literal amiFamily and ipPrefixCount; v2 follows upstream's static fields.
import { createHash } from 'node:crypto';
import type { EC2NodeClass } from '../../../api/index.js';
import { amiFamilyOf } from './settings.js';

/**
 * The version of the hash scheme (the `karpenter.k8s.aws/ec2nodeclass-hash-version` annotation). Tenon's
 * hash is not Karpenter's hashstructure value, so it carries its own version: NodeClaims stamped by Karpenter
 * are then never compared against it (and never falsely drift) after a migration.
 */
export const NodeClassHashVersion = 'tenon-v2';

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** A decimal 64-bit hash of any JSON value (key order does not matter). */
export function stableHash(value: unknown): string {
  const hex = createHash('sha256')
    .update(JSON.stringify(canonical(value)) ?? 'undefined')
    .digest('hex')
    .slice(0, 16);
  return BigInt(`0x${hex}`).toString(10);
}

/**
 * The hash of the fields whose change makes existing nodes drift (Karpenter's static fields). Selector terms are
 * left out: they drift through what they resolve to (AMIs, subnets, security groups, capacity reservations), which
 * IsDrifted compares directly. `ipPrefixCount` is left out as upstream does (it shapes new launches only), and the
 * AMI family counts as resolved, so setting `amiFamily` to what the alias already implies is no drift.
 */
export function nodeClassHash(nodeClass: EC2NodeClass): string {
  const {
    subnetSelectorTerms: _s,
    securityGroupSelectorTerms: _g,
    amiSelectorTerms: _a,
    capacityReservationSelectorTerms: _c,
    ipPrefixCount: _p,
    amiFamily: _f,
    ...rest
  } = nodeClass.spec ?? { subnetSelectorTerms: [], securityGroupSelectorTerms: [], amiSelectorTerms: [] };
  return stableHash({ ...rest, amiFamily: amiFamilyOf(nodeClass) });
}
