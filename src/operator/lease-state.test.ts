import { describe, expect, it } from 'vitest';
import { LeaseState } from './lease-state.js';

const deadline = 10_000;

describe('LeaseState', () => {
  it('allows writes from the first renew until a renew deadline after the last one, seen from either thread', () => {
    const renewer = new LeaseState(LeaseState.buffer(), deadline);
    const main = new LeaseState(renewer.buffer, deadline);
    expect(main.leading(1_000)).toBe(false);
    renewer.renewed(1_000);
    expect(main.phase()).toBe('leading');
    expect(main.leading(1_000 + deadline - 1)).toBe(true);
    expect(main.leading(1_000 + deadline)).toBe(false);
    renewer.renewed(9_000);
    expect(main.leading(1_000 + deadline)).toBe(true);
  });

  it('never allows writes again once the lease is lost or released, even if a late renew lands', () => {
    for (const end of ['lost', 'released'] as const) {
      const s = new LeaseState(LeaseState.buffer(), deadline);
      s.renewed(0);
      s.set(end);
      s.renewed(100);
      expect(s.phase()).toBe(end);
      expect(s.leading(200)).toBe(false);
    }
  });
});
