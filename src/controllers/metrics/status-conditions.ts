/**
 * What operatorpkg's status controller reports, read from the informers instead of a reconcile loop: the gauges
 * (one series per condition of each object, how long it has held its status, how long a deleting object has been
 * terminating) are computed when /metrics is scraped, and the transitions and finished terminations are seen in
 * the informer's update and delete events. Nothing runs while the cluster is quiet.
 */
import { Labels } from '../../api/index.js';
import type { Clock } from '../../clock/clock.js';
import type {
  Conditioned,
  StatusConditionMetrics,
  StatusKind,
  StatusObservation,
  StatusSource,
} from '../../observability/status-condition-metrics.js';

export type { StatusSource };

/** The kinds Karpenter's core registers operatorpkg's status controller for, with its options. */
export function coreStatusKinds(): { nodeClaim: StatusKind; nodePool: StatusKind; node: StatusKind } {
  // NodeClaims and Nodes carry their NodeClass (the supported one's label key) and NodePool; Nodes also whether
  // they were initialized. Only the Karpenter kinds also write the deprecated kind-less families.
  return {
    nodeClaim: {
      group: 'karpenter.sh',
      kind: 'NodeClaim',
      labels: [Labels.ec2NodeClass, Labels.nodePool],
      deprecated: true,
    },
    nodePool: { group: 'karpenter.sh', kind: 'NodePool', labels: [], deprecated: true },
    node: {
      group: '',
      kind: 'Node',
      labels: [Labels.ec2NodeClass, Labels.nodePool, Labels.initialized],
      deprecated: false,
    },
  };
}

function seconds(fromIso: string | undefined, toMs: number): number | undefined {
  const from = Date.parse(fromIso ?? '');
  return Number.isFinite(from) ? Math.max(0, (toMs - from) / 1000) : undefined;
}

/** The conditions of `after` whose status differs from `before`'s (all of them when it is new). */
function* transitionsOf(before: Conditioned | undefined, after: Conditioned): Iterable<StatusObservation> {
  const objectLabels = after.metadata.labels ?? {};
  for (const c of after.status?.conditions ?? []) {
    const was = before?.status?.conditions?.find((b) => b.type === c.type);
    if (was?.status === c.status) continue;
    const held = was ? seconds(was.lastTransitionTime, Date.parse(c.lastTransitionTime ?? '')) : undefined;
    const from = was && held !== undefined ? { from: { status: was.status, seconds: held } } : {};
    yield { what: 'transition', objectLabels, type: c.type, status: c.status, reason: c.reason ?? '', ...from };
  }
}

/**
 * Reports the status conditions of each source's objects on `metrics` until the returned function is called (an
 * operator restarted on the same informers must not count twice).
 */
export function reportStatusConditions(
  metrics: StatusConditionMetrics,
  clock: Clock,
  sources: readonly StatusSource[],
): () => void {
  let active = true;
  for (const { kind, objects } of sources) {
    metrics.register(kind, { objects: () => (active ? objects.cache.list() : []), now: () => clock.now() });
    const transitions = (before: Conditioned | undefined, after: Conditioned): void => {
      if (!active || before === after) return;
      for (const t of transitionsOf(before, after)) metrics.observe(kind.kind, t);
    };
    objects.on({
      add: (o) => transitions(undefined, o),
      update: (before, after) => transitions(before, after),
      delete: (o) => {
        const s = active ? seconds(o.metadata.deletionTimestamp, clock.now()) : undefined;
        if (o.metadata.deletionTimestamp && s !== undefined)
          metrics.observe(kind.kind, { what: 'terminated', objectLabels: o.metadata.labels ?? {}, seconds: s });
      },
    });
  }
  return () => {
    active = false;
  };
}
