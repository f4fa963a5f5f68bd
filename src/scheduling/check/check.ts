/**
 * checkPlacement: an independent judge of any solver result. It rebuilds the final placement from the input and
 * the result alone, with its own quantity arithmetic, label and taint matching and topology counting (nothing of the
 * solver's is imported but the model types), and lists every constraint the placement breaks.
 */
import type { SchedulingInput, SchedulingResult } from '../model.js';
import { checkAntiAffinity } from './anti-affinity.js';
import { checkHostPorts } from './host-ports.js';
import type { DomainMode } from '../rules/karpenter-domains.js';
import { checkNodeClaims } from './nodeclaims.js';
import { checkNodeFit } from './node-fit.js';
import { checkPodAffinity } from './pod-affinity.js';
import { checkSpread } from './spread.js';
import type { Violation } from './violation.js';
import { checkVolumes } from './volumes.js';
import { buildWorld } from './world.js';

/** How to judge: `domains` chooses kube-scheduler's topology domains (the default) or Karpenter's. */
export interface CheckOptions {
  domains?: DomainMode;
}

/** Every violation of the scheduling constraints in `result` for `input`; empty when the placement is valid. */
export function checkPlacement(input: SchedulingInput, result: SchedulingResult, opts: CheckOptions = {}): Violation[] {
  const world = buildWorld(input, result, opts.domains);
  return [
    ...world.violations,
    ...checkNodeFit(world),
    ...checkHostPorts(world),
    ...checkVolumes(world),
    ...checkPodAffinity(world),
    ...checkAntiAffinity(world),
    ...checkSpread(world),
    ...checkNodeClaims(world),
  ];
}

/** Violations counted per family, for reports. */
export function summarizeViolations(violations: readonly Violation[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of violations) out[v.family] = (out[v.family] ?? 0) + 1;
  return out;
}
