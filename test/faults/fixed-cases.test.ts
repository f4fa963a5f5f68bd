/**
 * Fixed cases of the fault suite, so CI always covers what a random seed may miss: drift (an AMI change, a NodePool
 * template change) and expiry under faults, and the controller process killed at an await mid-drain and
 * mid-deletion. Each must hold every invariant and converge: the replacements complete.
 */
import { describe, expect, it } from 'vitest';
import type { FaultCase } from './fault-cases.js';
import { runFaultCase } from './fault-world.js';

const minute = 60_000;

const base: Omit<FaultCase, 'faults'> = {
  seed: 27,
  replicas: 8,
  cpuMillis: 1000,
  spot: false,
  budget: 1,
  scaleDown: { at: 3 * minute, to: 4 },
};

/** What a case must have exercised, beyond holding the invariants. */
interface Exercised {
  drifted?: boolean;
  expired?: boolean;
  /** The kill landed on a call of this phase (not at the deadline). */
  killedIn: string;
}

const cases: Array<[string, FaultCase, Exercised]> = [
  [
    'an AMI drift rolls every node while API writes fail and the controllers are killed mid-drain',
    {
      ...base,
      faults: [
        { at: 2 * minute, drift: 'ami' },
        { at: 150_000, fault: { apiErrors: { rate: 0.5, verb: 'patch', resource: 'nodes', code: 500, for: '30s' } } },
        { at: 160_000, kill: { phase: 'drain', skip: 1, delivered: true, restartAfter: 10_000 } },
      ],
    },
    { drifted: true, killedIn: 'drain' },
  ],
  [
    'a NodePool template drift under lost instances and a kill mid-deletion',
    {
      ...base,
      seed: 2727,
      spot: true,
      budget: 2,
      faults: [
        { at: 2 * minute, drift: 'nodePoolTemplate' },
        { at: 130_000, fault: { instanceLoss: { count: 1 } } },
        { at: 140_000, kill: { phase: 'deletion', skip: 0, delivered: false, restartAfter: 1_000 } },
      ],
    },
    { drifted: true, killedIn: 'deletion' },
  ],
  [
    'nodes expire every 8 minutes while EC2 throttles launches and the controllers are killed mid-launch',
    {
      ...base,
      seed: 72,
      expireAfterMinutes: 8,
      faults: [
        { at: minute, fault: { ec2Throttling: { action: 'CreateFleet', calls: 10 } } },
        { at: 7.5 * minute, kill: { phase: 'launch', skip: 0, delivered: true, restartAfter: 10_000 } },
      ],
    },
    { expired: true, killedIn: 'launch' },
  ],
];

describe('fault suite: fixed cases', () => {
  it.each(cases)('%s', async (_what, c, exercised) => {
    const { violations, seen, kills } = await runFaultCase(c);
    expect(violations.map((v) => `minute ${v.atMinute.toFixed(1)}: ${v.what}`)).toEqual([]);
    if (exercised.drifted) expect(seen.drifted).toBeGreaterThan(0);
    if (exercised.expired) expect(seen.expired).toBeGreaterThan(0);
    expect(kills).toHaveLength(1);
    expect(kills[0]).toMatch(new RegExp(`^${exercised.killedIn}: (kube|aws) `));
  });
});
