import { describe, expect, it } from 'vitest';
import { cronMatches, lastFiring, parseCron } from '../../src/controllers/disruption/budgets/cron.js';

const at = (iso: string): number => Date.parse(iso);

function parsed(expr: string) {
  const r = parseCron(expr);
  if (!r.ok) throw new Error(r.error);
  return r.schedule;
}

describe('cron schedules (UTC)', () => {
  it.each([
    ['0 9 * * mon-fri', '2026-11-23T09:00:00Z', true], // Monday
    ['0 9 * * mon-fri', '2026-11-22T09:00:00Z', false], // Sunday
    ['0 9 * * 1-5', '2026-11-27T09:00:30Z', true], // Friday, within the minute
    ['*/15 * * * *', '2026-11-23T10:45:00Z', true],
    ['*/15 * * * *', '2026-11-23T10:46:00Z', false],
    ['0 0 1 jan *', '2026-01-01T00:00:00Z', true],
    ['0 0 * * 7', '2026-11-22T00:00:00Z', true], // 7 is Sunday
    ['0 0 13 * fri', '2026-11-13T00:00:00Z', true], // dom OR dow: 13th
    ['0 0 13 * fri', '2026-11-27T00:00:00Z', true], // dom OR dow: a Friday
    ['0 0 13 * fri', '2026-11-24T00:00:00Z', false],
    ['@daily', '2026-11-24T00:00:00Z', true],
    ['@hourly', '2026-11-24T05:00:00Z', true],
    ['@hourly', '2026-11-24T05:01:00Z', false],
    ['5-10/5 * * * *', '2026-11-24T05:10:00Z', true],
  ])('%s at %s fires: %s', (expr, when, fires) => {
    expect(cronMatches(parsed(expr), at(when))).toBe(fires);
  });

  it.each(['* * * *', '61 * * * *', '* 24 * * *', '*/0 * * * *', 'a b c d e', '5-1 * * * *'])(
    'rejects %s with the field named',
    (expr) => {
      const r = parseCron(expr);
      expect(r.ok).toBe(false);
    },
  );

  it.each([
    // business hours window: 09:00 + 8h
    ['0 9 * * mon-fri', 8 * 3600_000, '2026-11-23T16:59:00Z', '2026-11-23T09:00:00Z'],
    ['0 9 * * mon-fri', 8 * 3600_000, '2026-11-23T17:00:00Z', undefined],
    ['0 9 * * mon-fri', 8 * 3600_000, '2026-11-23T08:59:00Z', undefined],
    ['@daily', 3600_000, '2026-11-24T00:30:00Z', '2026-11-24T00:00:00Z'],
    ['@weekly', 7 * 24 * 3600_000, '2026-11-28T12:00:00Z', '2026-11-22T00:00:00Z'],
    ['0 0 1 1 *', 24 * 3600_000, '2026-06-01T00:00:00Z', undefined],
  ])('%s for %d ms: last firing before %s is %s', (expr, window, now, expected) => {
    const t = lastFiring(parsed(expr), at(now), window);
    expect(t === undefined ? undefined : new Date(t).toISOString().replace('.000', '')).toBe(expected);
  });
});

describe('lastFiring (property)', () => {
  it('agrees with a minute-by-minute scan', async () => {
    const fc = (await import('fast-check')).default;
    const field = (values: string[]) => fc.constantFrom(...values);
    const exprArb = fc
      .tuple(
        field(['0', '*/20', '5,35', '*']),
        field(['*', '3', '9-17', '*/6']),
        field(['*', '1', '13', '1-7']),
        field(['*', 'jan-jun', '11', '2']),
        field(['*', 'mon-fri', 'sun', '5']),
      )
      .map((f) => f.join(' '));
    fc.assert(
      fc.property(
        exprArb,
        fc.integer({ min: 0, max: 3 * 24 * 60 }),
        fc.integer({
          min: Date.parse('2026-01-01T00:00:00Z') / 60_000,
          max: Date.parse('2027-01-01T00:00:00Z') / 60_000,
        }),
        (expr, windowMin, nowMin) => {
          const s = parsed(expr);
          const now = nowMin * 60_000 + 17_000;
          let expected: number | undefined;
          for (let t = nowMin * 60_000; t > now - windowMin * 60_000; t -= 60_000) {
            if (cronMatches(s, t)) {
              expected = t;
              break;
            }
          }
          expect(lastFiring(s, now, windowMin * 60_000)).toBe(expected);
        },
      ),
      { numRuns: 300, seed: 3 },
    );
  });
});
