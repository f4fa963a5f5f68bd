/** Node repair policies: which Node condition, held how long, means the node is broken (S5). */

/** A Node condition that, held for longer than `tolerationDuration`, makes the node eligible for repair. */
export interface RepairPolicy {
  conditionType: string;
  conditionStatus: 'True' | 'False' | 'Unknown';
  /** Milliseconds the condition may hold before the node is repaired. */
  tolerationDuration: number;
}

const thirtyMinutes = 30 * 60 * 1000;

/** The policies every provider starts from: a kubelet that is NotReady or silent for 30 minutes. */
export const defaultRepairPolicies: readonly RepairPolicy[] = [
  { conditionType: 'Ready', conditionStatus: 'False', tolerationDuration: thirtyMinutes },
  { conditionType: 'Ready', conditionStatus: 'Unknown', tolerationDuration: thirtyMinutes },
];
