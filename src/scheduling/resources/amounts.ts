/**
 * Engine integers as words a user reads: CPU in cores ("3.92 CPU"), memory and storage in binary units ("20Gi"),
 * pods and extended resources as counts. For messages only; quantity.ts keeps the exact forms.
 */
import { isMilliResource } from './quantity.js';
import type { Resources } from './resources.js';

const binary: ReadonlyArray<readonly [string, number]> = [
  ['Ei', 60],
  ['Pi', 50],
  ['Ti', 40],
  ['Gi', 30],
  ['Mi', 20],
  ['Ki', 10],
];
const byteResources: ReadonlySet<string> = new Set(['memory', 'ephemeral-storage']);

/** A number with at most two decimals, trailing zeros dropped (3.9200 -> 3.92, 4.00 -> 4). */
export function decimal(n: number): string {
  return String(Math.round(n * 100) / 100);
}

function bytes(v: number): string {
  for (const [suffix, pow] of binary) {
    const unit = 2 ** pow;
    if (Math.abs(v) >= unit) return `${decimal(v / unit)}${suffix}`;
  }
  return `${v} bytes`;
}

/** One amount of resource `name`, with its unit ("5 CPU", "20Gi", "110 pods", "2 nvidia.com/gpu"). */
export function amount(name: string, value: number): string {
  if (isMilliResource(name)) return `${decimal(value / 1000)} CPU`;
  if (byteResources.has(name)) return name === 'memory' ? bytes(value) : `${bytes(value)} ${name}`;
  if (name === 'pods') return `${value} pod${value === 1 ? '' : 's'}`;
  return `${value} ${name}`;
}

/** Amounts of a vector for a sentence ("5 CPU and 20Gi"); pods are left out unless named in `only`. */
export function amounts(r: Resources, only?: readonly string[]): string {
  const names = (only ?? Object.keys(r)).filter((k) => (r[k] ?? 0) !== 0 && (k !== 'pods' || only !== undefined));
  const parts = names.map((k) => amount(k, r[k] ?? 0));
  if (parts.length <= 1) return parts[0] ?? 'nothing';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1] ?? ''}`;
}
