import { describe, expect, it } from 'vitest';
import { disruptionLabels, terminationModeOf } from './disruption-metrics.js';

const claim = (tgp?: string) => ({
  metadata: { labels: { 'karpenter.sh/nodepool': 'web', 'karpenter.sh/capacity-type': 'spot' } },
  spec: tgp === undefined ? {} : { terminationGracePeriod: tgp },
});

describe('disruption labels', () => {
  it('derive the termination mode from the terminationGracePeriod, as Karpenter does', () => {
    expect(terminationModeOf(claim())).toBe('graceful');
    expect(terminationModeOf(claim('48h'))).toBe('eventual');
    expect(terminationModeOf(claim('0s'))).toBe('forceful');
    expect(terminationModeOf(undefined)).toBe('graceful');
  });

  it("carry the NodePool's consolidation policy in snake case only for a consolidation", () => {
    expect(disruptionLabels(claim('1h'), 'underutilized', { policy: 'WhenEmptyOrUnderutilized' })).toEqual({
      reason: 'underutilized',
      nodepool: 'web',
      capacity_type: 'spot',
      consolidation_policy: 'when_empty_or_underutilized',
      termination_mode: 'eventual',
    });
    expect(disruptionLabels(claim(), 'drifted').consolidation_policy).toBe('');
    expect(disruptionLabels(claim(), 'unhealthy', { mode: 'forceful' }).termination_mode).toBe('forceful');
  });
});
