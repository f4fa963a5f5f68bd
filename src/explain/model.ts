/** What `tenon explain` answers: a state, one cause with its constraint, object and numbers, one fix, details. */

/** The kinds of object that can be explained. */
export type ExplainKind = 'pod' | 'nodeclaim' | 'node' | 'nodepool';

/** Why something does not happen: the constraint, the object that imposes it, and the numbers behind it. */
export interface Cause {
  /** The constraint family (`resources`, `taints`, `nodepool-limits`, `nodeclass`, `do-not-disrupt`, …). */
  constraint: string;
  /** The object imposing it, as `Kind/name` (`NodePool/general`, `EC2NodeClass/default`, `Pod/ns/name`). */
  object: string;
  /** The numbers and names behind it, already with units where they have one. */
  numbers: Record<string, string | number>;
  /** The cause as one sentence. */
  message: string;
}

/** An explanation of one object. */
export interface Explanation {
  kind: ExplainKind;
  /** `namespace/name` for pods, the name otherwise. */
  name: string;
  /** One word for where it stands (`Pending`, `Running`, `WaitingForNodeClaim`, `Launched`, `Registered`, …). */
  state: string;
  /** The first line: what is happening and why. */
  summary: string;
  /** The cause, when something is blocked or waiting. */
  cause?: Cause;
  /** What the user can change, when something is blocked. */
  fix?: string;
  /** One line per NodePool, node or step, most relevant first. */
  details: string[];
  /** False when Tenon cannot say why it waits (the report lists these as unexplained waits). */
  explained: boolean;
}
