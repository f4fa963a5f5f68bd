/**
 * Preference relaxation in Karpenter's order: when a pod cannot be placed with its preferences treated as
 * requirements, loosen one thing and try again — the first required node-affinity term (when others remain),
 * then preferred pod affinity, preferred pod anti-affinity, preferred node affinity (heaviest first),
 * ScheduleAnyway topology spread, and finally tolerate PreferNoSchedule taints.
 */
import { rebuildRequirements, type PodInfo } from './pod-info.js';

type Relaxation = (info: PodInfo) => string | undefined;

const relaxations: Relaxation[] = [
  (p) => (p.state.requiredTerms.length > 1 ? (p.state.requiredTerms.shift(), 'removed required node affinity term 0') : undefined),
  (p) => dropPreferred(p.state.affinity, 'preferred pod affinity'),
  (p) => dropPreferred(p.state.antiAffinity, 'preferred pod anti-affinity'),
  (p) => (p.state.preferredNodeTerms.length > 0 ? (p.state.preferredNodeTerms.shift(), 'removed preferred node affinity term') : undefined),
  (p) => {
    const i = p.state.spread.findIndex((c) => c.whenUnsatisfiable === 'ScheduleAnyway');
    if (i < 0) return undefined;
    p.state.spread.splice(i, 1);
    return 'removed ScheduleAnyway topology spread constraint';
  },
];

function dropPreferred(terms: PodInfo['state']['affinity'], what: string): string | undefined {
  const i = terms.findIndex((t) => !t.required);
  if (i < 0) return undefined;
  terms.splice(i, 1);
  return `removed ${what} term`;
}

/**
 * Loosens one preference of `info` in place; returns what was relaxed, or undefined when nothing is left.
 * `toleratePreferNoSchedule` is set when some NodePool has a PreferNoSchedule taint (only then can it help).
 */
export function relax(info: PodInfo, opts: { toleratePreferNoSchedule: boolean }): string | undefined {
  for (const r of relaxations) {
    const done = r(info);
    if (done) {
      rebuildRequirements(info);
      return done;
    }
  }
  if (opts.toleratePreferNoSchedule && !info.state.toleratePreferNoSchedule) {
    info.state.toleratePreferNoSchedule = true;
    rebuildRequirements(info);
    return 'tolerating PreferNoSchedule taints';
  }
  return undefined;
}
