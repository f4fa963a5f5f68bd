/** Exact resource arithmetic for instance types: cpu in millicores, everything else in whole units (bytes). */
import type { ResourceList } from '../../../api/index.js';
import { resourceValue } from '../../../scheduling/index.js';

/** Resources as integers: cpu millicores, memory and storage bytes, counts as counts. */
export type Amounts = Record<string, number>;

const Mi = 2 ** 20;
const Gi = 2 ** 30;

/** Parses a ResourceList. */
export function parseAmounts(list: Readonly<Record<string, string>> | undefined): Amounts {
  const out: Amounts = {};
  for (const [k, v] of Object.entries(list ?? {})) out[k] = resourceValue(k, v);
  return out;
}

/** `a − b` per resource of `a`, never below zero. */
export function subtract(a: Amounts, ...bs: Amounts[]): Amounts {
  const out: Amounts = { ...a };
  for (const b of bs) for (const [k, v] of Object.entries(b)) if (k in out) out[k] = Math.max(0, (out[k] ?? 0) - v);
  return out;
}

/** Formats one amount the way the published tables write it: `1930m`, `6903Mi`, `17Gi`, `29`. */
export function formatAmount(name: string, v: number): string {
  if (name === 'cpu') return v % 1000 === 0 ? String(v / 1000) : `${v}m`;
  if (name === 'memory' || name === 'ephemeral-storage' || name.startsWith('hugepages-')) {
    if (v !== 0 && v % Gi === 0 && name !== 'memory') return `${v / Gi}Gi`;
    if (v % Mi === 0) return `${v / Mi}Mi`;
    if (v % 1024 === 0) return `${v / 1024}Ki`;
  }
  return String(v);
}

/** A ResourceList of the non-zero amounts. */
export function toResourceList(a: Amounts): ResourceList {
  const out: ResourceList = {};
  for (const k of Object.keys(a).sort()) {
    const v = a[k] ?? 0;
    if (v !== 0) out[k] = formatAmount(k, v);
  }
  return out;
}

/** Bytes of `n` MiB. */
export const mib = (n: number): number => n * Mi;
/** Bytes of `n` GiB. */
export const gib = (n: number): number => n * Gi;
