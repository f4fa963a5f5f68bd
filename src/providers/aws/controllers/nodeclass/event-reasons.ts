/** Event reasons of the EC2NodeClass controller (Karpenter's names where it has them). */
export const NodeClassEventReasons = {
  /** userData has findings a user should act on (SCENARIOS.md S2, S3). */
  userDataLint: 'UserDataLint',
  /** Deletion waits until no NodeClaim uses the class. */
  waitingOnNodeClaimTermination: 'WaitingOnNodeClaimTermination',
} as const;
