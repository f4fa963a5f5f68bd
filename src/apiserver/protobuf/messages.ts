/**
 * The message specs the decoder walks, built from generated-messages.ts, and the zero values worth keeping.
 * gogo-protobuf writes every non-pointer field, zero or not, and a pointer field only when set: a zero that
 * arrives is kept only for Go pointers (where it was set on purpose) and for fields JSON writes even when
 * zero; any other zero is the Go default and left out, as the JSON encoding would leave it out.
 */
import { generatedMessages } from './generated-messages.js';
import { rootKinds } from './roots.js';
import type { FieldSpec, MessageSpec, Scalar } from './schema.js';

// `Message.field` (short message names) whose zero values are kept.
const keepZero: ReadonlySet<string> = new Set(
  [
    'DeploymentSpec.replicas DeploymentSpec.revisionHistoryLimit DeploymentSpec.progressDeadlineSeconds',
    'ReplicaSetSpec.replicas StatefulSetSpec.replicas StatefulSetSpec.revisionHistoryLimit DaemonSetSpec.revisionHistoryLimit',
    'RollingUpdateStatefulSetStrategy.partition',
    'JobSpec.parallelism JobSpec.completions JobSpec.activeDeadlineSeconds JobSpec.backoffLimit JobSpec.backoffLimitPerIndex',
    'JobSpec.maxFailedIndexes JobSpec.manualSelector JobSpec.ttlSecondsAfterFinished JobSpec.suspend SuccessPolicyRule.succeededCount',
    'LeaseSpec.leaseDurationSeconds LeaseSpec.leaseTransitions LeaseSpec.holderIdentity ClientIPConfig.timeoutSeconds',
    'ConfigMap.immutable Secret.immutable ServiceAccount.automountServiceAccountToken ServiceAccountTokenProjection.expirationSeconds',
    'ConfigMapEnvSource.optional ConfigMapKeySelector.optional ConfigMapProjection.optional ConfigMapVolumeSource.optional',
    'SecretEnvSource.optional SecretKeySelector.optional SecretProjection.optional SecretVolumeSource.optional ClusterTrustBundleProjection.optional',
    'ConfigMapVolumeSource.defaultMode SecretVolumeSource.defaultMode DownwardAPIVolumeSource.defaultMode ProjectedVolumeSource.defaultMode',
    'KeyToPath.mode DownwardAPIVolumeFile.mode FCVolumeSource.lun',
    'PodSpec.terminationGracePeriodSeconds PodSpec.activeDeadlineSeconds PodSpec.automountServiceAccountToken PodSpec.shareProcessNamespace',
    'PodSpec.priority PodSpec.enableServiceLinks PodSpec.setHostnameAsFQDN PodSpec.hostUsers Probe.terminationGracePeriodSeconds',
    'PodSecurityContext.runAsUser PodSecurityContext.runAsGroup PodSecurityContext.runAsNonRoot PodSecurityContext.fsGroup',
    'SecurityContext.privileged SecurityContext.runAsUser SecurityContext.runAsGroup SecurityContext.runAsNonRoot',
    'SecurityContext.readOnlyRootFilesystem SecurityContext.allowPrivilegeEscalation WindowsSecurityContextOptions.hostProcess',
    'Toleration.tolerationSeconds TopologySpreadConstraint.minDomains TopologySpreadConstraint.maxSkew',
    'PreferredSchedulingTerm.weight WeightedPodAffinityTerm.weight SleepAction.seconds GRPCAction.port',
    'ContainerPort.containerPort ServicePort.port ServiceSpec.allocateLoadBalancerNodePorts PriorityClass.value',
    'PersistentVolumeClaimSpec.storageClassName StorageClass.allowVolumeExpansion',
    'DeleteOptions.gracePeriodSeconds DeleteOptions.orphanDependents ObjectMeta.deletionGracePeriodSeconds',
    'OwnerReference.controller OwnerReference.blockOwnerDeletion',
  ].flatMap((line) => line.split(' ')),
);

const scalars: ReadonlySet<string> = new Set<string>([
  'string',
  'bytes',
  'int',
  'double',
  'bool',
  'quantity',
  'time',
  'microTime',
  'duration',
  'intOrString',
  'rawJson',
]);

function shortName(name: string): string {
  return name.split('.').pop() ?? name;
}

function fieldSpec(message: string, text: string, specs: Map<string, MessageSpec>): [number, FieldSpec] {
  const [num = '', name = '', rawType = ''] = text.split(' ');
  const list = rawType.endsWith('[]');
  const map = rawType.startsWith('{');
  const typeName = rawType.replace(/\[\]$/, '').replace(/^\{(.*)\}$/, '$1');
  const type = scalars.has(typeName) ? (typeName as Scalar) : specs.get(typeName);
  if (!type) throw new Error(`generated-messages: ${message} refers to unknown ${typeName}`);
  const spec: FieldSpec = {
    name,
    type,
    list,
    map,
    keepZero: keepZero.has(`${shortName(message)}.${name}`),
    inline: name === '*',
  };
  return [Number(num), spec];
}

function buildSpecs(): Map<string, MessageSpec> {
  const specs = new Map<string, MessageSpec>();
  // Specs are created first and filled after, so messages may refer to each other in any order.
  for (const name of Object.keys(generatedMessages)) specs.set(name, { name: shortName(name), fields: {} });
  for (const [name, text] of Object.entries(generatedMessages)) {
    const spec = specs.get(name);
    if (!spec) continue;
    for (const f of text.split(', ')) {
      const [num, field] = fieldSpec(name, f, specs);
      spec.fields[num] = field;
    }
  }
  return specs;
}

const specs = buildSpecs();

/** Decodable top-level messages by `apiVersion/Kind`. */
export const kindMessages: ReadonlyMap<string, MessageSpec> = new Map(
  rootKinds.flatMap((r) => {
    const spec = specs.get(r.message);
    return spec ? [[`${r.apiVersion}/${r.kind}`, spec] as const] : [];
  }),
);
