/** A cluster installed with CRDs older than NodeOverlay and CapacityBuffer: the operator starts and provisions. */
import { afterEach, describe, expect, it } from 'vitest';
import { tenonCrds } from '../../src/api/crds/index.js';
import {
  createNodePool,
  createUnschedulablePod,
  eventually,
  nodeClaims,
  startHarness,
  type Harness,
} from './harness.js';

describe('an operator on a cluster without the NodeOverlay and CapacityBuffer CRDs', () => {
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.stop();
  });

  it('warns once per missing kind, leaves those controllers off, and still provisions', async () => {
    const older = tenonCrds().filter((c) => !['NodeOverlay', 'CapacityBuffer'].includes(c.spec.names.kind));
    h = await startHarness({ crds: older });
    const warnings = h.logs.filter((l) => l.includes('CRD is not installed'));
    expect(warnings).toHaveLength(2);
    expect(warnings.join('')).toContain('the NodeOverlay (karpenter.sh/v1alpha1) CRD is not installed');
    expect(warnings.join('')).toContain('the CapacityBuffer (autoscaling.x-k8s.io/v1beta1) CRD is not installed');
    await createNodePool(h);
    await createUnschedulablePod(h, 'p-1');
    const harness = h;
    await eventually(harness, 'a NodeClaim for the pending pod', async () => (await nodeClaims(harness)).length > 0, {
      advanceMs: 1000,
    });
  });

  it('does not warn when the CRDs are installed', async () => {
    h = await startHarness();
    expect(h.logs.filter((l) => l.includes('CRD is not installed'))).toEqual([]);
  });
});
