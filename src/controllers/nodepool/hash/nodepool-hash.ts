import { createHash } from 'node:crypto';
import type { NodePool } from '../../../api/index.js';

/** Version of the hash scheme; bumped when the hashed fields change so old hashes are not read as drift. */
export const nodePoolHashVersion = 'v3';

function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, stable(v)]),
    );
  }
  return value;
}

/**
 * The NodePool's drift hash: over the template fields whose change makes existing nodes drifted (labels,
 * annotations, taints, startup taints, nodeClassRef), as Karpenter's static drift does. Requirements,
 * expireAfter and terminationGracePeriod are left out: requirements drift is checked against node labels
 * instead, and the other two apply to existing nodes without replacing them.
 */
export function nodePoolHash(nodePool: NodePool): string {
  const t = nodePool.spec.template;
  const hashed = stable({
    labels: t.metadata?.labels,
    annotations: t.metadata?.annotations,
    taints: t.spec.taints,
    startupTaints: t.spec.startupTaints,
    nodeClassRef: t.spec.nodeClassRef,
  });
  const digest = createHash('sha256').update(JSON.stringify(hashed)).digest();
  return digest.readBigUInt64BE(0).toString();
}
