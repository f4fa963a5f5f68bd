/**
 * Why a NodeClaim is drifted, checked in Karpenter's order: the NodePool's template hash changed (same hash
 * version), the Node's labels no longer satisfy the NodePool's requirements, or the cloud provider says the
 * instance differs from what its NodeClass would launch now (e.g. a new AMI).
 */
import { Annotations, ConditionReasons } from '../../../api/index.js';
import type { CloudProvider } from '../../../cloudprovider/index.js';
import { Requirement } from '../../../scheduling/index.js';
import type { StoredNodeClaim, StoredNodePool } from '../../../state/informers.js';
import { cloudClaim } from '../../cloud-objects.js';
import { nodePoolHash, nodePoolHashVersion } from '../../nodepool/hash/nodepool-hash.js';

/** A drift reason with the message for the condition. */
export interface DriftFinding {
  reason: string;
  message: string;
}

/** Static drift: the template hash the NodeClaim was launched with differs from the NodePool's now. */
export function staticDrift(nc: StoredNodeClaim, pool: StoredNodePool): DriftFinding | undefined {
  const a = nc.metadata.annotations ?? {};
  const hash = a[Annotations.nodePoolHash];
  // A different hash version means the hashed fields changed in Tenon, not in the NodePool.
  if (!hash || a[Annotations.nodePoolHashVersion] !== nodePoolHashVersion) return undefined;
  if (hash === nodePoolHash(pool)) return undefined;
  return {
    reason: ConditionReasons.nodePoolDrifted,
    message: `NodePool ${pool.metadata.name ?? ''} template changed since this NodeClaim was launched`,
  };
}

/** Requirements drift: a label of the node is no longer allowed by the NodePool's requirements. */
export function requirementsDrift(
  labels: Readonly<Record<string, string>>,
  pool: StoredNodePool,
): DriftFinding | undefined {
  for (const raw of pool.spec.template.spec.requirements) {
    const v = labels[raw.key];
    const missing = v === undefined && (raw.operator === 'In' || raw.operator === 'Exists');
    const wrong = v !== undefined && !Requirement.of(raw.key, raw.operator, raw.values ?? []).has(v);
    if (missing || wrong) {
      const rule = `${raw.key} ${raw.operator}${raw.values?.length ? ` [${raw.values.join(', ')}]` : ''}`;
      return {
        reason: ConditionReasons.requirementsDrifted,
        message: `label ${raw.key}=${v ?? '(unset)'} no longer satisfies NodePool ${pool.metadata.name ?? ''} requirement ${rule}`,
      };
    }
  }
  return undefined;
}

/** The first drift found, if any. */
export async function driftOf(
  nc: StoredNodeClaim,
  pool: StoredNodePool,
  labels: Readonly<Record<string, string>>,
  cloud: CloudProvider,
): Promise<DriftFinding | undefined> {
  const found = staticDrift(nc, pool) ?? requirementsDrift(labels, pool);
  if (found) return found;
  const reason = await cloud.isDrifted(cloudClaim(nc));
  return reason ? { reason, message: `the cloud provider reports ${reason}` } : undefined;
}
