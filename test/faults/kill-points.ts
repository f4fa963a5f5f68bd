/**
 * Where the fault suite kills the controller process: on a call of a phase of a NodeClaim's life (the launch, the
 * registration, the drain, the deletion), or on any call at all.
 */
import type { ControllerCall } from '../../src/sim/playground/controller-process.js';

/** The phases a kill aims at. */
export const killPhases = ['launch', 'registration', 'drain', 'deletion', 'any'] as const;

/** A phase a kill aims at. */
export type KillPhase = (typeof killPhases)[number];

/** Whether `c` is one of the calls of `phase`. */
export function inPhase(phase: KillPhase, c: ControllerCall): boolean {
  const kube = (verb: RegExp, path: RegExp): boolean => c.api === 'kube' && verb.test(c.verb) && path.test(c.path);
  switch (phase) {
    case 'launch':
      return (
        (c.api === 'aws' && ['createFleet', 'createLaunchTemplate', 'createTags'].includes(c.verb)) ||
        kube(/^POST$/, /\/nodeclaims$/)
      );
    case 'registration':
      return kube(/^(PUT|PATCH)$/, /\/nodeclaims\/[^/]+\/status$|\/api\/v1\/nodes\/[^/]+$/);
    case 'drain':
      return kube(/^POST$/, /\/eviction$/) || kube(/^(PUT|PATCH)$/, /\/api\/v1\/nodes\/[^/]+$/);
    case 'deletion':
      return (
        (c.api === 'aws' && c.verb === 'terminateInstances') ||
        kube(/^(PUT|PATCH|DELETE)$/, /\/nodeclaims\/[^/]+$|\/api\/v1\/nodes\/[^/]+$/)
      );
    case 'any':
      return true;
  }
}
