/**
 * The table form of the explanation tests: rows of what to explain in which snapshot of a playground world and
 * what the explanation must say (state, cause, first line, fix, detail lines).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExplainContext, Explanation } from '../../src/explain/index.js';
import { pod, type Situation } from './harness.js';

/** One row: what to explain in which snapshot, and what the explanation must say. */
export interface Row {
  name: string;
  at: string;
  explain: (ctx: ExplainContext) => Explanation | undefined;
  state: string;
  constraint?: string;
  object?: string | RegExp;
  summary: RegExp;
  /** The fix line; null when there is nothing to fix. */
  fix: RegExp | null;
  details?: RegExp[];
}

/** On-demand capacity only. */
export const onDemand = '{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}';
/** The c, m and r categories. */
export const cmr = '{key: karpenter.k8s.aws/instance-category, operator: In, values: [c, m, r]}';

/** NodePool requirements confined to `zone`. */
export function inZone(zone: string): string {
  return `[${onDemand}, ${cmr}, {key: topology.kubernetes.io/zone, operator: In, values: [${zone}]}]`;
}

/** A pod selecting NodePool `pool`. */
export function podOn(pool: string, name: string, extra: { labels?: string; spec?: string } = {}): string {
  return pod(name, {
    labels: extra.labels,
    spec: `nodeSelector: {karpenter.sh/nodepool: ${pool}}${extra.spec ? `, ${extra.spec}` : ''}`,
  });
}

/** The node a pod runs on. */
export function nodeOf(ctx: ExplainContext, podName: string): string {
  return ctx.snapshot.pods.find((p) => p.metadata.name === podName)?.spec.nodeName ?? `(no node for ${podName})`;
}

/** A NodeClaim of NodePool `pool`. */
export function claimOf(ctx: ExplainContext, pool: string): string {
  return (
    ctx.snapshot.nodeClaims.find((c) => c.metadata.labels?.['karpenter.sh/nodepool'] === pool)?.metadata.name ??
    `(no NodeClaim of ${pool})`
  );
}

/** Asserts one row against its explanation. */
export function check(row: Row, e: Explanation | undefined): void {
  if (!e) throw new Error(`${row.name}: nothing to explain`);
  const text = `${e.summary}\nfix: ${e.fix ?? '(none)'}\n${e.details.join('\n')}`;
  expect(e.explained, text).toBe(true);
  expect(e.state, text).toBe(row.state);
  if (row.constraint) expect(e.cause?.constraint, text).toBe(row.constraint);
  if (row.object) expect(e.cause?.object ?? '', text).toMatch(row.object);
  expect(e.summary).toMatch(row.summary);
  if (row.fix === null) expect(e.fix, text).toBeUndefined();
  else expect(e.fix ?? '', text).toMatch(row.fix);
  for (const d of row.details ?? [])
    expect(
      e.details.some((x) => d.test(x)),
      `${text}\n(no detail ${d})`,
    ).toBe(true);
}

/** Runs each row against the snapshot its `at` names, taken by `build`. */
export function table(
  title: string,
  build: () => Promise<{ s: Situation; snapshots: Map<string, ExplainContext> }>,
  rows: Row[],
): void {
  describe(title, () => {
    let world: { s: Situation; snapshots: Map<string, ExplainContext> } | undefined;
    beforeAll(async () => {
      world = await build();
    }, 240_000);
    afterAll(async () => {
      await world?.s.pg.stop();
    });
    for (const row of rows)
      it(row.name, () => {
        const ctx = world?.snapshots.get(row.at);
        if (!ctx) throw new Error(`no snapshot ${row.at}`);
        check(row, row.explain(ctx));
      });
  });
}

/** Advances in 1 s steps until `ready` holds on a fresh snapshot (at most `maxMs`), and returns that snapshot. */
export async function until(
  s: Situation,
  ready: (ctx: ExplainContext) => boolean,
  maxMs = 120_000,
): Promise<ExplainContext> {
  for (let t = 0; t <= maxMs; t += 1_000) {
    const ctx = await s.context();
    if (ready(ctx)) return ctx;
    await s.pg.clock.advance(1_000);
  }
  throw new Error('the situation never came about');
}
