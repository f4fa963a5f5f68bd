import { describe, expect, it } from 'vitest';
import { attachedRunStart } from './runner.js';

describe('an attached run', () => {
  it('starts its simulated clock at the next midnight UTC, the time of day an embedded run starts at', () => {
    expect(new Date(attachedRunStart(Date.UTC(2026, 10, 27, 22, 51, 7))).toISOString()).toBe(
      '2026-11-28T00:00:00.000Z',
    );
    expect(new Date(attachedRunStart(Date.UTC(2026, 10, 28, 0, 0, 1))).toISOString()).toBe('2026-11-29T00:00:00.000Z');
    expect(attachedRunStart(Date.UTC(2026, 10, 28))).toBe(Date.UTC(2026, 10, 28));
  });
});
