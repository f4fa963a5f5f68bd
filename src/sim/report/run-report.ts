/** What a scenario run observed, in the shape the terminal summary and the HTML report render. */

/** One expectation's outcome. */
export interface ExpectationResult {
  step: number;
  description: string;
  passed: boolean;
  observed: string;
}

/** The world at one instant of simulated time. */
export interface Sample {
  /** Simulated seconds since the start. */
  t: number;
  podsPending: number;
  podsRunning: number;
  nodesReady: number;
  nodesNotReady: number;
  nodeClaims: number;
  costPerHour: number;
  /** Nodes by `instance type/capacity type/zone` (labels of the nodes present, Ready or not). */
  fleet?: Record<string, number>;
}

/** When a scenario step began, for the marks on the report's charts. */
export interface StepMark {
  step: number;
  /** Simulated seconds since the start. */
  t: number;
  label: string;
}

/** A Kubernetes Event as the timeline shows it. */
export interface TimelineEvent {
  t: number;
  type: string;
  reason: string;
  object: string;
  message: string;
  /** The component that reported it (`karpenter` for Tenon, `default-scheduler`, `kubelet`, ...). */
  source?: string;
}

/** The Events a report shows, and how many it left out (by reason). */
export interface Timeline {
  rows: TimelineEvent[];
  omitted: number;
  omittedByReason: Record<string, number>;
}

/** Instances, grouped. */
export interface LaunchGroup {
  instanceType: string;
  zone: string;
  capacityType: string;
  count: number;
}

/** A pod left waiting at the end of a run without a cause `tenon explain` can name. */
export interface UnexplainedWait {
  /** `namespace/name`. */
  pod: string;
  /** Where the explanation left it (`Pending`, …). */
  state: string;
  /** The explanation's first line. */
  summary: string;
  /** Seconds since the kube-scheduler marked it Unschedulable. */
  pendingSeconds: number;
}

/** Everything one run reports. */
export interface RunReport {
  scenario: string;
  description?: string;
  seed: number;
  passed: boolean;
  expectations: ExpectationResult[];
  samples: Sample[];
  /** When each step began. */
  steps?: StepMark[];
  events: TimelineEvent[];
  /** Events not in `events` (the timeline is bounded), by reason. */
  eventsOmitted?: { count: number; byReason: Record<string, number> };
  /** Every instance launched during the run, terminated ones included. */
  launched: LaunchGroup[];
  /** The instances still pending or running at the end: the fleet the run left. */
  fleet: LaunchGroup[];
  costPerHour: number;
  /** Time until every pod ran, when that happened. */
  allRunning?: { simSeconds: number; wallSeconds: number };
  simSeconds: number;
  wallSeconds: number;
  /** Pods waiting at the end without a cause (there should be none); absent when not looked for. */
  unexplainedWaits?: UnexplainedWait[];
  /** Failure of the run itself (not of an expectation), e.g. a step that could not be applied. */
  error?: string;
}
