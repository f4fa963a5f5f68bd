/**
 * The scenario file format (`scenarios/*.yaml`, documented in scenarios/README.md): a world, then steps that
 * apply objects, change them, move time, inject faults and check outcomes.
 */

/** What a `count` expectation compares against. */
export interface CountBounds {
  equals?: number;
  min?: number;
  max?: number;
}

/** An outcome to check (one key per expectation). */
export type Expectation =
  | { allPodsRunning: true }
  | { count: { kind: CountableKind; labelSelector?: string } & CountBounds }
  | { noNodeTaint: string }
  | { event: { reason: string; type?: 'Normal' | 'Warning'; kind?: string } }
  | { noEvent: { reason: string; kind?: string } }
  | {
      condition: {
        kind: 'NodeClaim' | 'NodePool' | 'EC2NodeClass' | 'Node' | 'NodeOverlay';
        name?: string;
        type: string;
        status: 'True' | 'False' | 'Unknown';
      };
    }
  | { costPerHour: { max: number } }
  | { nodeClaimNeverDeleted: { reason: string } }
  | { fewestPerZone: true };

/** Kinds a `count` expectation can count. */
export const countableKinds = ['Pod', 'Node', 'NodeClaim', 'PersistentVolumeClaim', 'PersistentVolume'] as const;
/** One of `countableKinds`. */
export type CountableKind = (typeof countableKinds)[number];

/** How long a fault lasts: `for` a duration from its step, then it heals (absent: for the rest of the run). */
export interface FaultWindow {
  for?: string;
}

/** HTTP codes an `apiErrors` fault answers with (504: a request timeout). */
export const apiErrorCodes = [409, 429, 500, 503, 504] as const;

/** A fault to inject into the world. */
export type Fault =
  | { ccmDelay: { min: string; max: string } & FaultWindow }
  | { kubeletStop: { labelSelector?: string; count?: number } & FaultWindow }
  | { insufficientCapacity: { instanceType?: string; zone?: string; capacityType?: string } & FaultWindow }
  | {
      apiErrors: {
        rate: number;
        verb?: string;
        resource?: string;
        code?: (typeof apiErrorCodes)[number];
      } & FaultWindow;
    }
  | { watchDrop: true | ({ lifetime?: string } & FaultWindow) }
  | { ec2Throttling: { action?: string; calls: number } }
  | { instanceLoss: { count: number; capacityType?: string } }
  | { spotInterruption: { count: number; warning?: string } }
  | { rebalanceRecommendation: { count: number } };

/** A reference to one object. */
export interface ObjectRef {
  kind: string;
  name: string;
  namespace?: string;
}

/** A wait: until `for` holds, failing after `timeout`, and failing at once if `while` stops holding meanwhile. */
export interface WaitStep {
  for: Expectation;
  timeout: string;
  /** Checked on every slice of simulated time while waiting (e.g. a count that must hold throughout). */
  while?: Expectation;
}

/** One step of a scenario. */
export type Step =
  | { apply: string | { file: string } }
  | { delete: ObjectRef }
  | { scale: ObjectRef & { replicas: number } }
  | { wait: WaitStep }
  | { advance: string }
  | { fault: Fault }
  | { expect: Expectation };

/** A capacity reservation the simulated account holds from the start. */
export interface CapacityReservationSpec {
  instanceType: string;
  /** A zone of the simulated region (`us-east-1a`). */
  zone: string;
  /** Instances it holds. */
  count: number;
  /** Default `targeted`. */
  instanceMatchCriteria?: 'open' | 'targeted';
  /** Default `default`. */
  reservationType?: 'default' | 'capacity-block';
  tags?: Record<string, string>;
  interruptible?: boolean;
  /** It ends this long after the start (a duration such as `2h`); none: it does not end. */
  endsAfter?: string;
}

/** The simulated world a scenario runs in. */
export interface WorldSpec {
  /** Zones of the simulated region (3 to 6). */
  zones?: number;
  /** Install the default EC2NodeClass and NodePool (default true). */
  defaults?: boolean;
  /** Capacity reservations of the simulated account (their ids are generated: select them by tags). */
  capacityReservations?: CapacityReservationSpec[];
}

/** A whole scenario file. */
export interface Scenario {
  name: string;
  description?: string;
  seed?: number;
  world?: WorldSpec;
  steps: Step[];
}
