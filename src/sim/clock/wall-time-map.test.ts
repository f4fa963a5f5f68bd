import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WallTimeMap } from './wall-time-map.js';

const start = Date.UTC(2026, 10, 27, 19, 0, 0);

/** Readings as a run makes them: wall time always moves; simulated time moves at any pace, or stands still. */
const readings = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 3_000 }), fc.integer({ min: 0, max: 90_000 })), {
    minLength: 1,
    maxLength: 60,
  })
  .map((steps) => {
    let wall = start;
    let sim = start;
    return steps.map(([dw, ds]) => [(wall += dw), (sim += ds)] as const);
  });

/**
 * Readings where simulated time always moves, at a pace of 1/10 to 100 simulated ms per wall ms: the map can be
 * inverted, and epoch milliseconds keep a fraction of a ms through both directions.
 */
const strictReadings = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 3_000 }), fc.double({ min: 0.1, max: 100, noNaN: true })), {
    minLength: 1,
    maxLength: 60,
  })
  .map((steps) => {
    let wall = start;
    let sim = start;
    return steps.map(([dw, pace]) => [(wall += dw), (sim += dw * pace)] as const);
  });

function mapOf(rs: readonly (readonly [number, number])[], pace = 30): WallTimeMap {
  const map = new WallTimeMap({ pace });
  for (const [w, s] of rs) map.record(w, s);
  return map;
}

/** A wall instant somewhere around the readings (before, between, after). */
const around = fc.integer({ min: -60_000, max: 400_000 }).map((d) => start + d);

describe('WallTimeMap', () => {
  it('is monotone both ways: a later wall time is never an earlier simulated time', () => {
    fc.assert(
      fc.property(readings, around, around, (rs, a, b) => {
        const map = mapOf(rs);
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(map.toSim(lo)).toBeLessThanOrEqual(map.toSim(hi));
        expect(map.toWall(lo)).toBeLessThanOrEqual(map.toWall(hi));
      }),
    );
  });

  it('is the identity when simulated time runs at the wall clock’s pace', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 5_000 }), { minLength: 1, maxLength: 40 }), around, (dws, t) => {
        let wall = start;
        const map = new WallTimeMap();
        for (const dw of dws) map.record((wall += dw), wall);
        expect(map.toSim(t)).toBeCloseTo(t, 1);
        expect(map.toWall(t)).toBeCloseTo(t, 1);
      }),
    );
  });

  it('round-trips while simulated time moves; where it stood still, simulated to wall and back still does', () => {
    fc.assert(
      fc.property(strictReadings, around, (rs, t) => {
        const map = mapOf(rs);
        expect(map.toSim(map.toWall(t))).toBeCloseTo(t, 1);
        expect(map.toWall(map.toSim(t))).toBeCloseTo(t, 1);
      }),
    );
    // Where simulated time stood still, a simulated instant goes to the first wall instant that read it.
    const map = mapOf([
      [start, start],
      [start + 1_000, start + 30_000],
      [start + 5_000, start + 30_000],
      [start + 6_000, start + 60_000],
    ]);
    expect(map.toWall(start + 30_000)).toBe(start + 1_000);
    expect(map.toSim(map.toWall(start + 30_000))).toBe(start + 30_000);
    expect(map.toSim(start + 3_000)).toBe(start + 30_000);
  });

  it('maps a whole-second timestamp the same however late it is read, with readings taken before each read', () => {
    fc.assert(
      fc.property(readings, (rs) => {
        const map = mapOf([]);
        const seen = new Map<number, number>();
        for (const [w, s] of rs) {
          map.record(w, s);
          // Everything the cluster stamped so far (whole seconds, up to now) is read now.
          for (let t = Math.floor(start / 1000) * 1000; t <= w; t += 1000) if (!seen.has(t)) seen.set(t, map.toSim(t));
        }
        for (const [t, first] of seen) expect(map.toSim(t)).toBe(first);
      }),
    );
  });

  it('keeps at most two readings per wall second, however many reads there are', () => {
    const map = new WallTimeMap();
    for (let i = 0; i < 10_000; i++) map.record(start + i, start + i * 30);
    expect(map.size).toBe(20);
    expect(map.toSim(start + 5_000)).toBe(start + 150_000);
  });

  it('keeps the first reading’s offset before it and the recent pace after the last', () => {
    const map = new WallTimeMap({ pace: 7 });
    map.record(start, start + 1_000);
    expect(map.toSim(start - 10_000)).toBe(start - 9_000);
    // One reading says nothing about the pace: the configured one.
    expect(map.toSim(start + 1_000)).toBe(start + 1_000 + 7_000);
    for (let i = 1; i <= 4; i++) map.record(start + i * 1_000, start + 1_000 + i * 30_000);
    expect(map.toSim(start + 5_000)).toBe(start + 1_000 + 150_000);
    expect(map.toWall(start + 1_000 + 150_000)).toBe(start + 5_000);
  });
});
