import { parseDuration } from './duration.js';

/** Feature gates Karpenter knows, with its defaults. */
export interface FeatureGates {
  SpotToSpotConsolidation: boolean;
  NodeRepair: boolean;
  ReservedCapacity: boolean;
  StaticCapacity: boolean;
}

/** Every setting of the operator. Karpenter's names where it has the setting; Tenon's own otherwise. */
export interface Options {
  clusterName: string;
  clusterEndpoint: string;
  batchIdleDuration: number;
  batchMaxDuration: number;
  featureGates: FeatureGates;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  metricsPort: number;
  healthProbePort: number;
  /** Address the probe and metrics servers listen on: loopback by default, 0.0.0.0 in a pod (the chart sets it). */
  bindAddress: string;
  disableLeaderElection: boolean;
  leaderElectionNamespace: string;
  leaderElectionName: string;
  /** Client-side API request rate (requests a second) and burst, as Karpenter's KUBE_CLIENT_QPS / KUBE_CLIENT_BURST. */
  kubeClientQps: number;
  kubeClientBurst: number;
  vmMemoryOverheadPercent: number;
  interruptionQueue: string;
  /** Karpenter's ISOLATED_VPC: no Pricing API (no VPC endpoint); on-demand prices from the list shipped with the release. */
  isolatedVPC: boolean;
  preferencePolicy: 'Respect' | 'Ignore';
  minValuesPolicy: 'Strict' | 'BestEffort';
  /** A NodeClaim not launched after this is deleted (ms). */
  launchTimeout: number;
  /** A NodeClaim not registered after this is deleted (ms); a registered one never is. */
  registrationTimeout: number;
  /** An ephemeral taint present this long is reported with an Event (ms, SCENARIOS.md S1). */
  lingeringTaintAlert: number;
  nodeRepair: boolean;
  /** Repair stops when more than this fraction of a NodePool's nodes is unhealthy (SCENARIOS.md S5). */
  nodeRepairUnhealthyThreshold: number;
  /**
   * Tenon's own, for `--cloud-provider fake` only: whether the fake cloud's simulated kubelets renew Node Leases
   * (FAKE_CLOUD_NODE_LEASES). Off, they post Node status only: the embedded API server has no node lifecycle
   * controller to miss them, and `npm run bench -- idle` measures the controllers without 50 Lease writes a second
   * of 500 simulated machines. A real cluster's node lifecycle controller needs them on.
   */
  fakeCloudNodeLeases: boolean;
}

/** The defaults, matching Karpenter's where it has the setting. */
export const defaultOptions: Options = {
  clusterName: '',
  clusterEndpoint: '',
  batchIdleDuration: 1000,
  batchMaxDuration: 10_000,
  featureGates: { SpotToSpotConsolidation: false, NodeRepair: true, ReservedCapacity: true, StaticCapacity: false },
  logLevel: 'info',
  metricsPort: 8080,
  healthProbePort: 8081,
  bindAddress: '127.0.0.1',
  disableLeaderElection: false,
  leaderElectionNamespace: '',
  leaderElectionName: 'tenon-leader-election',
  kubeClientQps: 200,
  kubeClientBurst: 300,
  vmMemoryOverheadPercent: 0.075,
  interruptionQueue: '',
  isolatedVPC: false,
  preferencePolicy: 'Respect',
  minValuesPolicy: 'Strict',
  launchTimeout: 5 * 60_000,
  registrationTimeout: 15 * 60_000,
  lingeringTaintAlert: 5 * 60_000,
  nodeRepair: true,
  nodeRepairUnhealthyThreshold: 0.2,
  fakeCloudNodeLeases: true,
};

/** A setting that could not be read, naming the variable and the rule. */
export class OptionError extends Error {}

type Source = Record<string, string | undefined>;

function duration(src: Source, name: string, fallback: number): number {
  const raw = src[name];
  if (raw === undefined || raw === '') return fallback;
  const ms = parseDuration(raw);
  if (ms === undefined) throw new OptionError(`${name}: invalid duration "${raw}" (expected e.g. 10s, 5m, 1h)`);
  return ms;
}

function num(src: Source, name: string, fallback: number): number {
  const raw = src[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw.replace(/%$/, '')) / (raw.endsWith('%') ? 100 : 1);
  if (!Number.isFinite(n) || n < 0) throw new OptionError(`${name}: invalid number "${raw}"`);
  return n;
}

/** A TCP port: a whole number from 0 (any free port) to 65535. */
function port(src: Source, name: string, fallback: number): number {
  const raw = src[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n > 65535)
    throw new OptionError(`${name}: must be a port number from 0 to 65535, got "${raw}"`);
  return n;
}

function bool(src: Source, name: string, fallback: boolean): boolean {
  const raw = src[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw !== 'true' && raw !== 'false') throw new OptionError(`${name}: must be true or false, got "${raw}"`);
  return raw === 'true';
}

function oneOf<T extends string>(src: Source, name: string, allowed: readonly T[], fallback: T): T {
  const raw = src[name];
  if (raw === undefined || raw === '') return fallback;
  const hit = allowed.find((a) => a.toLowerCase() === raw.toLowerCase());
  if (!hit)
    throw new OptionError(
      `${name}: unsupported value "${raw}": supported values: ${allowed.map((a) => `"${a}"`).join(', ')}`,
    );
  return hit;
}

/** Parses FEATURE_GATES (`Name=true,Other=false`) over the defaults. */
export function parseFeatureGates(
  raw: string | undefined,
  base: FeatureGates = defaultOptions.featureGates,
): FeatureGates {
  const gates = { ...base };
  for (const part of (raw ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [k = '', v = ''] = part.split('=').map((x) => x.trim());
    if (!(k in gates))
      throw new OptionError(
        `FEATURE_GATES: unknown feature gate "${k}": known gates: ${Object.keys(gates).join(', ')}`,
      );
    if (v !== 'true' && v !== 'false') throw new OptionError(`FEATURE_GATES: ${k} must be true or false, got "${v}"`);
    gates[k as keyof FeatureGates] = v === 'true';
  }
  return gates;
}

/** Reads the options from environment-style variables (flags are mapped to the same names by the CLI). */
export function optionsFromEnv(src: Source): Options {
  const d = defaultOptions;
  return {
    clusterName: src.CLUSTER_NAME ?? d.clusterName,
    clusterEndpoint: src.CLUSTER_ENDPOINT ?? d.clusterEndpoint,
    batchIdleDuration: duration(src, 'BATCH_IDLE_DURATION', d.batchIdleDuration),
    batchMaxDuration: duration(src, 'BATCH_MAX_DURATION', d.batchMaxDuration),
    featureGates: parseFeatureGates(src.FEATURE_GATES),
    logLevel: oneOf(src, 'LOG_LEVEL', ['debug', 'info', 'warn', 'error'] as const, d.logLevel),
    metricsPort: port(src, 'METRICS_PORT', d.metricsPort),
    healthProbePort: port(src, 'HEALTH_PROBE_PORT', d.healthProbePort),
    bindAddress: src.BIND_ADDRESS || d.bindAddress,
    disableLeaderElection: bool(src, 'DISABLE_LEADER_ELECTION', d.disableLeaderElection),
    leaderElectionNamespace: src.LEADER_ELECTION_NAMESPACE || src.SYSTEM_NAMESPACE || d.leaderElectionNamespace,
    leaderElectionName: src.LEADER_ELECTION_NAME || d.leaderElectionName,
    kubeClientQps: num(src, 'KUBE_CLIENT_QPS', d.kubeClientQps),
    kubeClientBurst: num(src, 'KUBE_CLIENT_BURST', d.kubeClientBurst),
    vmMemoryOverheadPercent: num(src, 'VM_MEMORY_OVERHEAD_PERCENT', d.vmMemoryOverheadPercent),
    interruptionQueue: src.INTERRUPTION_QUEUE ?? d.interruptionQueue,
    isolatedVPC: bool(src, 'ISOLATED_VPC', d.isolatedVPC),
    preferencePolicy: oneOf(src, 'PREFERENCE_POLICY', ['Respect', 'Ignore'] as const, d.preferencePolicy),
    minValuesPolicy: oneOf(src, 'MIN_VALUES_POLICY', ['Strict', 'BestEffort'] as const, d.minValuesPolicy),
    launchTimeout: duration(src, 'LAUNCH_TIMEOUT', d.launchTimeout),
    registrationTimeout: duration(src, 'REGISTRATION_TIMEOUT', d.registrationTimeout),
    lingeringTaintAlert: duration(src, 'LINGERING_TAINT_ALERT', d.lingeringTaintAlert),
    nodeRepair: bool(src, 'NODE_REPAIR', d.nodeRepair),
    nodeRepairUnhealthyThreshold: num(src, 'NODE_REPAIR_UNHEALTHY_THRESHOLD', d.nodeRepairUnhealthyThreshold),
    fakeCloudNodeLeases: bool(src, 'FAKE_CLOUD_NODE_LEASES', d.fakeCloudNodeLeases),
  };
}
