import { describe, expect, it } from 'vitest';
import { TimelineBuilder, type EventObject } from './observe.js';

const t0 = Date.parse('2026-01-01T00:00:00Z');

function event(i: number, reason: string, opts: { type?: string; component?: string } = {}): EventObject {
  return {
    metadata: { name: `e${i}`, namespace: 'default' },
    type: opts.type ?? 'Normal',
    reason,
    message: `${reason} ${i}`,
    lastTimestamp: new Date(t0 + i * 1000).toISOString(),
    involvedObject: { kind: 'Pod', name: `p${i}`, namespace: 'default' },
    source: { component: opts.component ?? 'default-scheduler' },
  };
}

describe('the report timeline', () => {
  it("keeps Tenon's Events and Warnings, fills up with the earliest others, and counts what it left out", () => {
    const b = new TimelineBuilder(t0, 5);
    // Listed out of time order, as the API lists by name.
    for (const i of [9, 3, 7, 1, 5, 8, 2, 6, 4, 0]) b.add(event(i, 'Scheduled'));
    b.add(event(20, 'Launched', { component: 'karpenter' }));
    b.add(event(15, 'FailedScheduling', { type: 'Warning' }));
    const { rows, omitted, omittedByReason } = b.result();
    expect(rows.map((r) => `${r.t}:${r.reason}`)).toEqual([
      '0:Scheduled',
      '1:Scheduled',
      '2:Scheduled',
      '15:FailedScheduling',
      '20:Launched',
    ]);
    expect(omitted).toBe(7);
    expect(omittedByReason).toEqual({ Scheduled: 7 });
  });

  it('leaves nothing out when there are few Events', () => {
    const b = new TimelineBuilder(t0, 5);
    for (const i of [2, 1]) b.add(event(i, 'Scheduled'));
    const { rows, omitted, omittedByReason } = b.result();
    expect(rows.map((r) => r.t)).toEqual([1, 2]);
    expect(omitted).toBe(0);
    expect(omittedByReason).toEqual({});
  });
});
