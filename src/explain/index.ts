/** `tenon explain`: why a pod is pending, why a NodeClaim waits, why a node stays (see model.ts). */
export type * from './model.js';
export { explainContext, type ExplainContext } from './context.js';
export { explainPod } from './pod.js';
export { formatJson, formatText } from './format.js';
export { readSnapshot, type ClusterSnapshot, type EventObject, type StoredNodeClass } from './snapshot.js';
export { amount, amounts, duration, hourly } from './units.js';
export { UnplacedDiagnoser, type PodCause } from './unplaced.js';
export { explainNodeClaim, type LifecycleTimeouts } from './nodeclaim.js';
export { explainNode, explainNodePool } from './node.js';
