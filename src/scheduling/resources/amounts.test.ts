import { describe, expect, it } from 'vitest';
import { amount, amounts } from './amounts.js';

describe('amounts in words', () => {
  it('says CPU in cores, memory in binary units, pods and extended resources as counts', () => {
    expect(amount('cpu', 382_970)).toBe('382.97 CPU');
    expect(amount('cpu', 500)).toBe('0.5 CPU');
    expect(amount('memory', 20 * 2 ** 30)).toBe('20Gi');
    expect(amount('memory', 1536 * 2 ** 20)).toBe('1.5Gi');
    expect(amount('ephemeral-storage', 2 ** 30)).toBe('1Gi ephemeral-storage');
    expect(amount('pods', 110)).toBe('110 pods');
    expect(amount('nvidia.com/gpu', 2)).toBe('2 nvidia.com/gpu');
  });

  it('joins a vector for a sentence, leaving the pods slot out', () => {
    expect(amounts({ cpu: 5000, memory: 20 * 2 ** 30, pods: 1 })).toBe('5 CPU and 20Gi');
    expect(amounts({ cpu: 250 })).toBe('0.25 CPU');
  });
});
