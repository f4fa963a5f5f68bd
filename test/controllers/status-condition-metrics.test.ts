/**
 * operatorpkg's status-condition and termination metrics as a Prometheus scrape sees them: one count series per
 * condition of each object, how long it has held its status, the transitions (and how long the condition left had
 * held), the termination of deleted objects, the per-kind object labels, and the deprecated kind-less families.
 */
import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/clock/fake-clock.js';
import { coreStatusKinds, reportStatusConditions } from '../../src/controllers/metrics/status-conditions.js';
import type { InformerHandlers } from '../../src/kube/index.js';
import { Metrics } from '../../src/observability/metrics.js';
import type { Conditioned, StatusObjects } from '../../src/observability/status-condition-metrics.js';

/** The objects of one kind: a list and the handlers an informer would call. */
class Objects implements StatusObjects<Conditioned> {
  readonly items = new Map<string, Conditioned>();
  private readonly handlers: InformerHandlers<Conditioned>[] = [];
  cache = { list: (): Conditioned[] => [...this.items.values()] };
  on(h: InformerHandlers<Conditioned>): void {
    this.handlers.push(h);
    for (const o of this.items.values()) h.add?.(o);
  }
  put(o: Conditioned): void {
    const name = o.metadata.name ?? '';
    const before = this.items.get(name);
    this.items.set(name, o);
    for (const h of this.handlers) {
      if (before) h.update?.(before, o);
      else h.add?.(o);
    }
  }
  remove(name: string): void {
    const o = this.items.get(name);
    this.items.delete(name);
    if (o) for (const h of this.handlers) h.delete?.(o);
  }
}

const at = (ms: number): string => new Date(ms).toISOString();

function nodeClaim(
  name: string,
  conditions: Array<[type: string, status: string, reason: string, sinceMs: number]>,
  extra: { deletionTimestamp?: string } = {},
): Conditioned {
  return {
    metadata: {
      name,
      labels: { 'karpenter.sh/nodepool': 'default', 'karpenter.k8s.aws/ec2nodeclass': 'nc' },
      ...extra,
    },
    status: {
      conditions: conditions.map(([type, status, reason, since]) => ({
        type,
        status,
        reason,
        lastTransitionTime: at(since),
      })),
    },
  };
}

/** The samples of one family in the exposition text: label maps and values. */
async function samples(m: Metrics, name: string): Promise<Array<{ labels: Record<string, string>; value: number }>> {
  const out: Array<{ labels: Record<string, string>; value: number }> = [];
  for (const line of (await m.registry.metrics()).split('\n')) {
    const r = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!r || r[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const [, k = '', v = ''] of (r[2] ?? '').matchAll(/([a-zA-Z0-9_]+)="([^"]*)"/g)) labels[k] = v;
    out.push({ labels, value: Number(r[3]) });
  }
  return out;
}

function setup(): { m: Metrics; clock: FakeClock; claims: Objects; stop: () => void } {
  const m = new Metrics();
  const clock = new FakeClock(Date.UTC(2026, 10, 1));
  const claims = new Objects();
  const stop = reportStatusConditions(m.statusConditions, clock, [
    { kind: coreStatusKinds().nodeClaim, objects: claims },
  ]);
  return { m, clock, claims, stop };
}

describe('operator_nodeclaim_status_condition_*', () => {
  it('serves one count and current_status_seconds series per condition, labeled with the NodePool and NodeClass', async () => {
    const { m, clock, claims } = setup();
    const t0 = clock.now();
    claims.put(
      nodeClaim('a', [
        ['Launched', 'True', 'Launched', t0 - 30_000],
        ['Ready', 'Unknown', 'AwaitingReconciliation', t0 - 90_000],
      ]),
    );

    const labels = (type: string, status: string, reason: string): Record<string, string> => ({
      namespace: '',
      name: 'a',
      type,
      status,
      reason,
      karpenter_k8s_aws_ec2nodeclass: 'nc',
      karpenter_sh_nodepool: 'default',
    });
    expect(await samples(m, 'operator_nodeclaim_status_condition_count')).toEqual([
      { labels: labels('Launched', 'True', 'Launched'), value: 1 },
      { labels: labels('Ready', 'Unknown', 'AwaitingReconciliation'), value: 1 },
    ]);
    clock.advance(10_000);
    expect(await samples(m, 'operator_nodeclaim_status_condition_current_status_seconds')).toEqual([
      { labels: labels('Launched', 'True', 'Launched'), value: 40 },
      { labels: labels('Ready', 'Unknown', 'AwaitingReconciliation'), value: 100 },
    ]);
    // The deprecated family carries group and kind instead of the object labels.
    expect(await samples(m, 'operator_status_condition_count')).toContainEqual({
      labels: {
        namespace: '',
        name: 'a',
        type: 'Launched',
        status: 'True',
        reason: 'Launched',
        group: 'karpenter.sh',
        kind: 'NodeClaim',
      },
      value: 1,
    });
  });

  it('counts transitions and observes how long the condition left was held, with the status it went to', async () => {
    const { m, clock, claims } = setup();
    const t0 = clock.now();
    claims.put(nodeClaim('a', [['Ready', 'Unknown', 'AwaitingReconciliation', t0]]));
    // A resync or an unrelated change is no transition.
    claims.put(nodeClaim('a', [['Ready', 'Unknown', 'AwaitingReconciliation', t0]]));
    claims.put(nodeClaim('a', [['Ready', 'True', 'Ready', t0 + 75_000]]));

    const total = await samples(m, 'operator_nodeclaim_status_condition_transitions_total');
    expect(total.map((s) => [s.labels.type, s.labels.status, s.labels.reason, s.value])).toEqual([
      ['Ready', 'Unknown', 'AwaitingReconciliation', 1],
      ['Ready', 'True', 'Ready', 1],
    ]);
    const count = await samples(m, 'operator_nodeclaim_status_condition_transition_seconds_count');
    expect(count).toEqual([
      {
        labels: {
          type: 'Ready',
          status: 'Unknown',
          to_status: 'True',
          karpenter_k8s_aws_ec2nodeclass: 'nc',
          karpenter_sh_nodepool: 'default',
        },
        value: 1,
      },
    ]);
    expect((await samples(m, 'operator_nodeclaim_status_condition_transition_seconds_sum'))[0]?.value).toBe(75);
    // 75 s falls past the last default bucket (10 s).
    const buckets = await samples(m, 'operator_nodeclaim_status_condition_transition_seconds_bucket');
    expect(buckets.find((b) => b.labels.le === '10')?.value).toBe(0);
    expect(buckets.find((b) => b.labels.le === '+Inf')?.value).toBe(1);
    expect(await samples(m, 'operator_status_condition_transitions_total')).toContainEqual({
      labels: { type: 'Ready', status: 'True', reason: 'Ready', group: 'karpenter.sh', kind: 'NodeClaim' },
      value: 1,
    });
  });

  it('reports a terminating object until it is gone, then how long its termination took', async () => {
    const { m, clock, claims } = setup();
    const t0 = clock.now();
    claims.put(nodeClaim('a', [['Ready', 'True', 'Ready', t0]], { deletionTimestamp: at(t0) }));
    clock.advance(12_000);
    expect(await samples(m, 'operator_nodeclaim_termination_current_time_seconds')).toEqual([
      {
        labels: { namespace: '', name: 'a', karpenter_k8s_aws_ec2nodeclass: 'nc', karpenter_sh_nodepool: 'default' },
        value: 12,
      },
    ]);
    clock.advance(3_000);
    claims.remove('a');
    expect(await samples(m, 'operator_nodeclaim_termination_current_time_seconds')).toEqual([]);
    expect(await samples(m, 'operator_nodeclaim_termination_duration_seconds_sum')).toEqual([
      { labels: { karpenter_k8s_aws_ec2nodeclass: 'nc', karpenter_sh_nodepool: 'default' }, value: 15 },
    ]);
    expect(await samples(m, 'operator_termination_duration_seconds_count')).toEqual([
      { labels: { group: 'karpenter.sh', kind: 'NodeClaim' }, value: 1 },
    ]);
    expect(await samples(m, 'operator_nodeclaim_status_condition_count')).toEqual([]);
  });

  it('stops counting once stopped, and a restarted reporter reuses the families', async () => {
    const { m, clock, claims, stop } = setup();
    claims.put(nodeClaim('a', [['Ready', 'Unknown', 'AwaitingReconciliation', clock.now()]]));
    stop();
    claims.put(nodeClaim('a', [['Ready', 'True', 'Ready', clock.now()]]));
    expect(await samples(m, 'operator_nodeclaim_status_condition_count')).toEqual([]);
    const again = new Objects();
    reportStatusConditions(m.statusConditions, clock, [{ kind: coreStatusKinds().nodeClaim, objects: again }]);
    again.put(nodeClaim('b', [['Ready', 'True', 'Ready', clock.now()]]));
    const total = await samples(m, 'operator_nodeclaim_status_condition_transitions_total');
    expect(total.map((s) => [s.labels.status, s.value])).toEqual([
      ['Unknown', 1],
      ['True', 1],
    ]);
  });
});
