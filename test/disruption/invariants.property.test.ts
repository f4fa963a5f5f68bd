/**
 * The invariants over random clusters and sequences of passes: a PDB is never violated, do-not-disrupt
 * is never disrupted, active budgets are never exceeded, no pod is left without a place, and a consolidation
 * strictly lowers the fleet's cost. Each pass's command is carried out on the cluster (testing/apply.ts) before
 * the next pass, so later passes see what earlier ones did.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Budget } from '../../src/api/index.js';
import { Labels } from '../../src/api/index.js';
import { decide } from '../../src/controllers/disruption/decide.js';
import { applyCommand, fleetCost } from '../../src/controllers/disruption/testing/apply.js';
import { catalog, instanceType, node, pod, pool, view } from '../../src/controllers/disruption/testing/cluster.js';
import type { Command, DisruptionView } from '../../src/controllers/disruption/types.js';
import type * as sched from '../../src/scheduling/index.js';

const now = Date.parse('2026-11-23T10:00:00Z'); // a Monday
const apps = ['a', 'b', 'c'];

const budgetsArb: fc.Arbitrary<Budget[]> = fc.constantFrom<Budget[]>(
  [{ nodes: '100%' }],
  [{ nodes: '1' }],
  [{ nodes: '2' }],
  [{ nodes: '30%' }],
  [{ nodes: '0', reasons: ['Underutilized'] }, { nodes: '100%' }],
  [{ nodes: '0', schedule: '0 9 * * mon-fri', duration: '8h' }, { nodes: '100%' }], // blocked window is active
  [{ nodes: '0', schedule: '0 20 * * *', duration: '2h' }, { nodes: '3' }], // blocked window is not active
  [
    { nodes: '1', reasons: ['Drifted'] },
    { nodes: '50%', reasons: ['Empty', 'Underutilized'] },
  ],
);

// Memory per core varies so that multi-node consolidation's orders by memory per CPU differ from Karpenter's.
const podArb = fc.record({
  cpu: fc.constantFrom(0.25, 0.5, 1, 2, 3),
  memPerCpu: fc.constantFrom(1, 1, 2, 4),
  app: fc.constantFrom(...apps),
  dnd: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
});
const nodeArb = fc.record({
  size: fc.constantFrom(1, 2, 4, 8, 16),
  pool: fc.constantFrom('p1', 'p2'),
  spot: fc.boolean(),
  zone: fc.constantFrom('zone-a', 'zone-b'),
  dnd: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  drifted: fc.integer({ min: 0, max: 6 }).map((n) => n === 0),
  pods: fc.array(podArb, { maxLength: 8 }),
});
const clusterArb = fc.record({
  nodes: fc.array(nodeArb, { minLength: 1, maxLength: 10 }),
  budgets: fc.tuple(budgetsArb, budgetsArb),
  policies: fc.tuple(
    fc.constantFrom('WhenEmpty' as const, 'WhenEmptyOrUnderutilized' as const),
    fc.constantFrom('WhenEmpty' as const, 'WhenEmptyOrUnderutilized' as const),
  ),
  pdbAllowed: fc.array(fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }), { minLength: 3, maxLength: 3 }),
  spotToSpot: fc.boolean(),
  withSpot: fc.boolean(),
  mixedCatalog: fc.boolean(),
  // One NodePool lets the resource-only simulator answer; two send everything to the full solver.
  onePool: fc.boolean(),
});

type Cluster = typeof clusterArb extends fc.Arbitrary<infer T> ? T : never;

/** The pod with `gi` GiB of memory requested. */
function withMemory(p: sched.Pod, gi: number): sched.Pod {
  const c = p.spec.containers[0];
  if (c?.resources?.requests) c.resources.requests['memory'] = `${Math.round(gi * 1024)}Mi`;
  return p;
}

/**
 * The fake catalog, and with `mixed` compute-optimised types (1 GiB per core, cheaper per core) and a large type
 * dearer per core, so that the longest prefix's replacement is often a poor fit and another prefix is chosen.
 */
function typesOf(withSpot: boolean, mixed: boolean): sched.InstanceType[] {
  const base = catalog(withSpot);
  if (!mixed) return base;
  const spot = (cpu: number, perCpu: number) => (withSpot ? { spotPrice: cpu * perCpu } : {});
  const hc = [4, 8, 16].map((cpu) =>
    instanceType({ name: `hc.${cpu}x`, cpu, memGi: cpu, price: cpu * 0.035, ...spot(cpu, 0.015) }),
  );
  return [...base, ...hc, instanceType({ name: 'c.64x', cpu: 64, price: 64 * 0.07, ...spot(64, 0.03) })];
}

function build(c: Cluster): DisruptionView {
  const types = typesOf(c.withSpot, c.mixedCatalog);
  const nodes = c.nodes.map((n, i) => {
    let used = 0;
    const pods = n.pods
      .filter((p) => (used + p.cpu <= n.size ? ((used += p.cpu), true) : false))
      .map((p) =>
        withMemory(
          pod({
            cpu: p.cpu,
            labels: { app: p.app },
            annotations: p.dnd ? { 'karpenter.sh/do-not-disrupt': 'true' } : undefined,
          }),
          p.cpu * p.memPerCpu,
        ),
      );
    return node(
      {
        name: `n${i}`,
        type: `c.${n.size}x`,
        pool: c.onePool ? 'p1' : n.pool,
        zone: n.zone,
        capacityType: c.withSpot && n.spot ? 'spot' : 'on-demand',
        pods,
        extra: { doNotDisrupt: n.dnd, drifted: n.drifted ? 'AMIDrift' : undefined },
      },
      types,
    );
  });
  const pools = [
    pool({ name: 'p1', budgets: c.budgets[0], policy: c.policies[0] }),
    pool({ name: 'p2', budgets: c.budgets[1], policy: c.policies[1] }),
  ].slice(0, c.onePool ? 1 : 2);
  const pdbs = apps.flatMap((app, i) => {
    const allowed = c.pdbAllowed[i];
    return allowed === undefined
      ? []
      : [{ name: `pdb-${app}`, namespace: 'default', selector: { matchLabels: { app } }, disruptionsAllowed: allowed }];
  });
  return view({ types, nodes, pools, pdbs, now, spotToSpot: c.spotToSpot });
}

/** Budget allowance recomputed independently from the generator's few shapes. */
function expectedAllowance(v: DisruptionView, poolName: string, reason: string): number {
  const p = v.nodePools.find((x) => x.name === poolName);
  const num = v.nodes.filter((n) => n.nodePool === poolName).length;
  let allowed = Number.MAX_SAFE_INTEGER;
  for (const b of p?.budgets ?? []) {
    if (b.reasons && !b.reasons.includes(reason as never)) continue;
    if (b.schedule === '0 20 * * *') continue; // not active at Monday 10:00
    const n = b.nodes.endsWith('%') ? Math.ceil((Number(b.nodes.slice(0, -1)) * num) / 100) : Number(b.nodes);
    allowed = Math.min(allowed, n);
  }
  return allowed;
}

function checkCommand(v: DisruptionView, cmd: Command): void {
  for (const c of cmd.candidates) {
    // do-not-disrupt: never on the node, never on a pod of it.
    expect(c.node.doNotDisrupt).toBeFalsy();
    for (const p of c.node.pods ?? []) {
      expect(p.metadata.annotations?.['karpenter.sh/do-not-disrupt']).not.toBe('true');
      // PDBs: every pod to evict is under at most one PDB, and that PDB allows a disruption.
      const pdbs = v.pdbs.filter((b) => b.selector?.matchLabels?.['app'] === p.metadata.labels?.['app']);
      expect(pdbs.length).toBeLessThanOrEqual(1);
      for (const b of pdbs) expect(b.disruptionsAllowed).toBeGreaterThan(0);
    }
  }
  // Budgets: never more candidates of a NodePool than its active budgets allow.
  for (const p of v.nodePools) {
    const n = cmd.candidates.filter((c) => c.node.nodePool === p.name).length;
    expect(n).toBeLessThanOrEqual(expectedAllowance(v, p.name, cmd.reason));
  }
  // Consolidation: strictly cheaper, priced from the catalog rather than from the command.
  if (cmd.reason !== 'Drifted') {
    const before = cmd.candidates.reduce((s, c) => s + (c.node.price ?? 0), 0);
    const after = cmd.replacements.reduce((s, r) => {
      const it = v.instanceTypesByNodePool[r.nodePool]?.find((t) => t.name === r.cheapest.instanceType);
      const allowedCt = r.requirements.find((x) => x.key === Labels.capacityType)?.values;
      const prices = (it?.offerings ?? [])
        .filter((o) => !allowedCt || allowedCt.includes(o.capacityType))
        .map((o) => o.price);
      return s + Math.min(...prices);
    }, 0);
    expect(after).toBeLessThan(before);
  }
}

describe('disruption invariants (property)', () => {
  it('hold for every decision over random clusters and sequences of passes', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(clusterArb, (c) => {
        let v = build(c);
        for (let pass = 0; pass < 4; pass++) {
          const d = decide(v);
          if (!d.command) return;
          checkCommand(v, d.command);
          const kind = d.command.preferredOver
            ? 'multi-node consolidation/well-fitting prefix'
            : `${d.command.method}/${d.command.replacements.length ? 'replace' : 'delete'}`;
          seen.set(kind, (seen.get(kind) ?? 0) + 1);
          const costBefore = fleetCost(v);
          // No pod without a place: the scheduler can bind every displaced pod once the replacements are up.
          const applied = applyCommand(v, d.command);
          expect(applied.ok ? [] : applied.stranded).toEqual([]);
          if (!applied.ok) return;
          if (d.command.reason !== 'Drifted') expect(fleetCost(applied.view)).toBeLessThan(costBefore);
          v = applied.view;
        }
      }),
      { numRuns: 250, seed: 11 },
    );
    // Not vacuous: every method decided something, with and without replacements.
    expect([...seen.keys()].sort()).toEqual(
      expect.arrayContaining([
        'drift/delete',
        'drift/replace',
        'emptiness/delete',
        'multi-node consolidation/replace',
        'multi-node consolidation/well-fitting prefix',
        'single-node consolidation/delete',
        'single-node consolidation/replace',
      ]),
    );
  });
});
