/** The checker's findings: one entry per broken rule, with what a person needs to debug it. */

/** The constraint family a violation belongs to. */
export type CheckFamily =
  | 'accounting'
  | 'resources'
  | 'requirements'
  | 'taints'
  | 'pod-affinity'
  | 'pod-anti-affinity'
  | 'topology-spread'
  | 'host-ports'
  | 'volume-topology'
  | 'csi-limits'
  | 'nodepool-limits'
  | 'offerings'
  | 'nodeclaim'
  | 'cost';

/** One broken rule. */
export interface Violation {
  family: CheckFamily;
  /** `namespace/name` of the pod concerned, when one is. */
  pod?: string;
  /** `node/<name>`, `nodeclaim/<name>`, `new/<index>:<hostname>` or `nodepool/<name>`. */
  target?: string;
  message: string;
  details?: Record<string, string | number>;
}
