import { Type, type Static, type TUnsafe } from '@sinclair/typebox';
import { Int, MapOf, QuantityPattern, Str, StringMap, rule } from '../schema/builders.js';

const EvictionPattern =
  '^((\\d{1,2}(\\.\\d{1,2})?|100(\\.0{1,2})?)%||(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?)$';
const signals =
  "['memory.available','nodefs.available','nodefs.inodesFree','imagefs.available','imagefs.inodesFree','pid.available']";

function signalRule(field: string): ReturnType<typeof rule> {
  return rule(`self.all(x, x in ${signals})`, `valid keys for ${field} are ${signals}`);
}

function reservedRules(field: string): ReturnType<typeof rule>[] {
  return [
    rule(
      "self.all(x, x=='cpu' || x=='memory' || x=='ephemeral-storage' || x=='pid')",
      `valid keys for ${field} are ['cpu','memory','ephemeral-storage','pid']`,
    ),
    rule("self.all(x, !self[x].startsWith('-'))", `${field} value cannot be a negative resource quantity`),
  ];
}

const percent = (): ReturnType<typeof Int> => Int({ format: 'int32', minimum: 0, maximum: 100 });

/**
 * The kubelet settings Karpenter reads (allocatable, max pods, eviction), with their rules. The CRD no longer
 * carries this schema (see {@link KubeletPassThroughSchema}); the EC2NodeClass controller checks it instead.
 */
export const KubeletConfigurationSchema = Type.Object(
  {
    clusterDNS: Type.Optional(Type.Array(Type.String())),
    cpuCFSQuota: Type.Optional(Type.Boolean()),
    evictionHard: Type.Optional(
      MapOf(Str({ pattern: EvictionPattern }), { 'x-kubernetes-validations': [signalRule('evictionHard')] }),
    ),
    evictionMaxPodGracePeriod: Type.Optional(Int({ format: 'int32' })),
    evictionSoft: Type.Optional(
      MapOf(Str({ pattern: EvictionPattern }), { 'x-kubernetes-validations': [signalRule('evictionSoft')] }),
    ),
    evictionSoftGracePeriod: Type.Optional(
      StringMap({ 'x-kubernetes-validations': [signalRule('evictionSoftGracePeriod')] }),
    ),
    imageGCHighThresholdPercent: Type.Optional(percent()),
    imageGCLowThresholdPercent: Type.Optional(percent()),
    kubeReserved: Type.Optional(
      MapOf(Str({ pattern: QuantityPattern }), { 'x-kubernetes-validations': reservedRules('kubeReserved') }),
    ),
    maxPods: Type.Optional(Int({ format: 'int32', minimum: 0 })),
    podsPerCore: Type.Optional(Int({ format: 'int32', minimum: 0 })),
    systemReserved: Type.Optional(
      MapOf(Str({ pattern: QuantityPattern }), { 'x-kubernetes-validations': reservedRules('systemReserved') }),
    ),
  },
  {
    'x-kubernetes-validations': [
      rule(
        'has(self.imageGCHighThresholdPercent) && has(self.imageGCLowThresholdPercent) ?  self.imageGCHighThresholdPercent > self.imageGCLowThresholdPercent  : true',
        'imageGCHighThresholdPercent must be greater than imageGCLowThresholdPercent',
      ),
      rule(
        'has(self.evictionSoft) ? self.evictionSoft.all(e, (e in self.evictionSoftGracePeriod)):true',
        'evictionSoft OwnerKey does not have a matching evictionSoftGracePeriod',
      ),
      rule(
        'has(self.evictionSoftGracePeriod) ? self.evictionSoftGracePeriod.all(e, (e in self.evictionSoft)):true',
        'evictionSoftGracePeriod OwnerKey does not have a matching evictionSoft',
      ),
    ],
  },
);

/** Kubelet settings of an EC2NodeClass. */
export type KubeletConfiguration = Static<typeof KubeletConfigurationSchema>;

/**
 * `spec.kubelet` as the CRD publishes it: any KubeletConfiguration field, unchecked at admission. Karpenter
 * validates the fields it reads in the controller and reports a bad value as `ValidationSucceeded=False`.
 */
export const KubeletPassThroughSchema: TUnsafe<KubeletConfiguration & Record<string, unknown>> = Type.Unsafe({
  additionalProperties: { 'x-kubernetes-preserve-unknown-fields': true },
  type: 'object',
  'x-kubernetes-preserve-unknown-fields': true,
});
