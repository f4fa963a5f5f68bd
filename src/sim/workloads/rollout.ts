/** The arithmetic of a Deployment's rolling update: how far to scale the new ReplicaSet up and the old ones down. */

/** maxSurge / maxUnavailable resolved against the replica count (surge rounds up, unavailable down). */
export function resolveBounds(
  replicas: number,
  surge: number | string | undefined,
  unavailable: number | string | undefined,
): { maxSurge: number; maxUnavailable: number } {
  const resolve = (v: number | string | undefined, up: boolean): number => {
    if (v === undefined) v = '25%';
    if (typeof v === 'number') return v;
    const pct = Number(v.replace('%', '')) / 100;
    return up ? Math.ceil(replicas * pct) : Math.floor(replicas * pct);
  };
  const maxSurge = resolve(surge, true);
  const maxUnavailable = resolve(unavailable, false);
  // Both zero would deadlock; upstream then allows one unavailable.
  return { maxSurge, maxUnavailable: maxSurge === 0 && maxUnavailable === 0 ? 1 : maxUnavailable };
}

/** The state of a rollout: the desired count, the new ReplicaSet and the old ones. */
export interface RolloutState {
  replicas: number;
  maxSurge: number;
  maxUnavailable: number;
  newReplicas: number;
  oldReplicas: number[];
  /** Available pods over every ReplicaSet. */
  available: number;
}

/** The next replica counts: the new ReplicaSet's, and each old one's in the given (oldest first) order. */
export function nextRollout(s: RolloutState): { newReplicas: number; oldReplicas: number[] } {
  const total = s.newReplicas + s.oldReplicas.reduce((a, b) => a + b, 0);
  const room = Math.max(0, s.replicas + s.maxSurge - total);
  const newReplicas = Math.min(s.replicas, s.newReplicas + room);
  let canRemove = Math.max(0, s.available - (s.replicas - s.maxUnavailable));
  const oldReplicas = s.oldReplicas.map((n) => {
    const take = Math.min(n, canRemove);
    canRemove -= take;
    return n - take;
  });
  return { newReplicas, oldReplicas };
}
