/**
 * Preference relaxation in Karpenter's order: when a pod cannot be placed with its preferences treated as
 * requirements, loosen one thing and try again — the first required node-affinity term (when others remain),
 * then preferred pod affinity, preferred pod anti-affinity, preferred node affinity (heaviest first),
 * ScheduleAnyway topology spread, and finally tolerate PreferNoSchedule taints.
 */
import {
  traitsWithState,
  type AffinityTermState,
  type PodInfo,
  type PodTraits,
  type RelaxableState,
} from './pod-info.js';
import type { SolveCache } from './solve-cache.js';

/** One loosening: the state after it and what it did, or undefined when it does not apply. */
type Relaxation = (s: RelaxableState) => { state: RelaxableState; done: string } | undefined;

const relaxations: Relaxation[] = [
  (s) =>
    s.requiredTerms.length > 1
      ? { state: { ...s, requiredTerms: s.requiredTerms.slice(1) }, done: 'removed required node affinity term 0' }
      : undefined,
  (s) => dropPreferred(s, 'affinity', 'preferred pod affinity'),
  (s) => dropPreferred(s, 'antiAffinity', 'preferred pod anti-affinity'),
  (s) =>
    s.preferredNodeTerms.length > 0
      ? {
          state: { ...s, preferredNodeTerms: s.preferredNodeTerms.slice(1) },
          done: 'removed preferred node affinity term',
        }
      : undefined,
  (s) => {
    const i = s.spread.findIndex((c) => c.whenUnsatisfiable === 'ScheduleAnyway');
    if (i < 0) return undefined;
    return { state: { ...s, spread: without(s.spread, i) }, done: 'removed ScheduleAnyway topology spread constraint' };
  },
];

function without<T>(list: readonly T[], i: number): T[] {
  return [...list.slice(0, i), ...list.slice(i + 1)];
}

function dropPreferred(
  s: RelaxableState,
  field: 'affinity' | 'antiAffinity',
  what: string,
): { state: RelaxableState; done: string } | undefined {
  const terms: readonly AffinityTermState[] = s[field];
  const i = terms.findIndex((t) => !t.required);
  if (i < 0) return undefined;
  return { state: { ...s, [field]: without(terms, i) }, done: `removed ${what} term` };
}

/** The traits one relaxation further, and what was relaxed; undefined when nothing is left. */
export type Relaxed = { traits: PodTraits; done: string } | undefined;

function relaxTraits(traits: PodTraits, toleratePreferNoSchedule: boolean): Relaxed {
  for (const r of relaxations) {
    const next = r(traits.state);
    if (next) return { traits: traitsWithState(traits, next.state), done: next.done };
  }
  if (toleratePreferNoSchedule && !traits.state.toleratePreferNoSchedule) {
    return {
      traits: traitsWithState(traits, { ...traits.state, toleratePreferNoSchedule: true }),
      done: 'tolerating PreferNoSchedule taints',
    };
  }
  return undefined;
}

/**
 * Loosens one preference of `info` (moving it to other traits); returns what was relaxed, or undefined when
 * nothing is left. `toleratePreferNoSchedule` is set when some NodePool has a PreferNoSchedule taint (only then
 * can it help).
 */
export function relax(
  info: PodInfo,
  opts: { toleratePreferNoSchedule: boolean; cache?: SolveCache },
): string | undefined {
  // Relaxation depends on the traits alone, so the pods sharing traits share the relaxed ones too (keyed also by
  // whether PreferNoSchedule may be tolerated, which depends on the NodePools of the solve).
  const relaxed = opts.cache?.relaxed;
  let byOpt = relaxed?.get(info.traits);
  if (!byOpt) {
    byOpt = new Map();
    relaxed?.set(info.traits, byOpt);
  }
  let next = byOpt.get(opts.toleratePreferNoSchedule);
  if (!byOpt.has(opts.toleratePreferNoSchedule))
    byOpt.set(opts.toleratePreferNoSchedule, (next = relaxTraits(info.traits, opts.toleratePreferNoSchedule)));
  if (!next) return undefined;
  info.traits = next.traits;
  return next.done;
}
