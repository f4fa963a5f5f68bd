/** Stored objects as the cloud provider interface takes them (their names are always set once stored). */
import type { NodeClaim as CloudNodeClaim, NodePool as CloudNodePool } from '../cloudprovider/index.js';
import type { StoredNodeClaim, StoredNodePool } from '../state/informers.js';

/** A stored NodeClaim for the cloud provider. */
export function cloudClaim(nc: StoredNodeClaim): CloudNodeClaim {
  return { ...nc, metadata: { ...nc.metadata, name: nc.metadata.name ?? '' } } as CloudNodeClaim;
}

/** A stored NodePool for the cloud provider. */
export function cloudPool(np: StoredNodePool): CloudNodePool {
  return { ...np, metadata: { ...np.metadata, name: np.metadata.name ?? '' } } as CloudNodePool;
}
