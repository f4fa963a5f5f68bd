/** How long the kubelet's steps take, in simulated ms (each range is drawn from the node's random stream). */

/** A duration range. */
export interface Range {
  min: number;
  max: number;
}

/** The kubelet's timings. */
export interface KubeletTimings {
  /** Machine running → Node registered (OS boot, bootstrap, kubelet start). */
  boot: Range;
  /** Registered → Ready (container runtime and CNI up). */
  ready: Range;
  /** Ready → the device plugin registered its extended resources (its DaemonSet pod pulled and started). */
  devicePlugin: Range;
  /** Pod admitted → Running (image pull, container start). */
  podStart: Range;
  /** Deletion requested → containers gone (capped by the pod's grace period). */
  podStop: Range;
  /** Lease renewal interval (kubelet: 10 s, a quarter of the 40 s lease). */
  leaseRenewMs: number;
  /** Whether the kubelet keeps a Lease in kube-node-lease at all (false: it heartbeats by Node status only). */
  nodeLease: boolean;
  leaseDurationSeconds: number;
  /** How often an unchanged node status is posted (nodeStatusReportFrequency, 5 min). */
  statusReportMs: number;
  /** First and longest wait between attempts to register after an API error (the kubelet retries for ever). */
  registerRetry: Range;
}

/** Defaults close to an EKS node: ~30 s to register, ~10 s to Ready, a few seconds per pod. */
export const defaultKubeletTimings: KubeletTimings = {
  boot: { min: 20_000, max: 40_000 },
  ready: { min: 5_000, max: 15_000 },
  devicePlugin: { min: 10_000, max: 30_000 },
  podStart: { min: 1_000, max: 5_000 },
  podStop: { min: 500, max: 2_000 },
  leaseRenewMs: 10_000,
  nodeLease: true,
  leaseDurationSeconds: 40,
  statusReportMs: 300_000,
  registerRetry: { min: 100, max: 7_000 },
};
