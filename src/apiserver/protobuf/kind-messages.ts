/**
 * The top-level messages decoded from protobuf bodies, by apiVersion and kind: the kinds kubectl's imperative
 * `create` commands send (1.32 and later send protobuf for built-in kinds).
 */
import { labelSelector, objectMeta } from './meta-messages.js';
import { localObjectReference, podTemplateSpec } from './pod-messages.js';
import { ignored, message, type MessageSpec } from './schema.js';

const namespace = message('Namespace', {
  1: { name: 'metadata', type: objectMeta },
  2: { name: 'spec', type: message('NamespaceSpec', { 1: { name: 'finalizers', type: 'string', list: true } }) },
  3: { name: 'status', type: ignored },
});

const configMap = message('ConfigMap', {
  1: { name: 'metadata', type: objectMeta },
  2: { name: 'data', type: 'string', map: true },
  3: { name: 'binaryData', type: 'bytes', map: true },
  4: { name: 'immutable', type: 'bool', keepZero: true },
});

const secret = message('Secret', {
  1: { name: 'metadata', type: objectMeta },
  2: { name: 'data', type: 'bytes', map: true },
  3: { name: 'type', type: 'string' },
  4: { name: 'stringData', type: 'string', map: true },
  5: { name: 'immutable', type: 'bool', keepZero: true },
});

const serviceAccount = message('ServiceAccount', {
  1: { name: 'metadata', type: objectMeta },
  3: { name: 'imagePullSecrets', type: localObjectReference, list: true },
  4: { name: 'automountServiceAccountToken', type: 'bool', keepZero: true },
});

const servicePort = message('ServicePort', {
  1: { name: 'name', type: 'string' },
  2: { name: 'protocol', type: 'string' },
  3: { name: 'port', type: 'int', keepZero: true },
  4: { name: 'targetPort', type: 'intOrString' },
  5: { name: 'nodePort', type: 'int' },
});

const service = message('Service', {
  1: { name: 'metadata', type: objectMeta },
  2: {
    name: 'spec',
    type: message('ServiceSpec', {
      1: { name: 'ports', type: servicePort, list: true },
      2: { name: 'selector', type: 'string', map: true },
      3: { name: 'clusterIP', type: 'string' },
      4: { name: 'type', type: 'string' },
      5: { name: 'externalIPs', type: 'string', list: true },
      7: { name: 'sessionAffinity', type: 'string' },
      10: { name: 'externalName', type: 'string' },
    }),
  },
  3: { name: 'status', type: ignored },
});

const rollingUpdate = message('RollingUpdateDeployment', {
  1: { name: 'maxUnavailable', type: 'intOrString' },
  2: { name: 'maxSurge', type: 'intOrString' },
});

const deployment = message('Deployment', {
  1: { name: 'metadata', type: objectMeta },
  2: {
    name: 'spec',
    type: message('DeploymentSpec', {
      1: { name: 'replicas', type: 'int', keepZero: true },
      2: { name: 'selector', type: labelSelector },
      3: { name: 'template', type: podTemplateSpec },
      4: { name: 'strategy', type: message('DeploymentStrategy', { 1: { name: 'type', type: 'string' }, 2: { name: 'rollingUpdate', type: rollingUpdate } }) },
      5: { name: 'minReadySeconds', type: 'int' },
      6: { name: 'revisionHistoryLimit', type: 'int', keepZero: true },
      7: { name: 'paused', type: 'bool' },
      9: { name: 'progressDeadlineSeconds', type: 'int', keepZero: true },
    }),
  },
  3: { name: 'status', type: ignored },
});

const job = message('Job', {
  1: { name: 'metadata', type: objectMeta },
  2: {
    name: 'spec',
    type: message('JobSpec', {
      1: { name: 'parallelism', type: 'int', keepZero: true },
      2: { name: 'completions', type: 'int', keepZero: true },
      3: { name: 'activeDeadlineSeconds', type: 'int', keepZero: true },
      4: { name: 'selector', type: labelSelector },
      5: { name: 'manualSelector', type: 'bool', keepZero: true },
      6: { name: 'template', type: podTemplateSpec },
      7: { name: 'backoffLimit', type: 'int', keepZero: true },
      8: { name: 'ttlSecondsAfterFinished', type: 'int', keepZero: true },
    }),
  },
  3: { name: 'status', type: ignored },
});

const priorityClass = message('PriorityClass', {
  1: { name: 'metadata', type: objectMeta },
  2: { name: 'value', type: 'int', keepZero: true },
  3: { name: 'globalDefault', type: 'bool' },
  4: { name: 'description', type: 'string' },
  5: { name: 'preemptionPolicy', type: 'string' },
});

const podDisruptionBudget = message('PodDisruptionBudget', {
  1: { name: 'metadata', type: objectMeta },
  2: {
    name: 'spec',
    type: message('PodDisruptionBudgetSpec', {
      1: { name: 'minAvailable', type: 'intOrString' },
      2: { name: 'selector', type: labelSelector },
      3: { name: 'maxUnavailable', type: 'intOrString' },
      4: { name: 'unhealthyPodEvictionPolicy', type: 'string' },
    }),
  },
  3: { name: 'status', type: ignored },
});

/** Decodable messages by `apiVersion/Kind`. */
export const kindMessages: ReadonlyMap<string, MessageSpec> = new Map([
  ['v1/Namespace', namespace],
  ['v1/ConfigMap', configMap],
  ['v1/Secret', secret],
  ['v1/ServiceAccount', serviceAccount],
  ['v1/Service', service],
  ['apps/v1/Deployment', deployment],
  ['batch/v1/Job', job],
  ['scheduling.k8s.io/v1/PriorityClass', priorityClass],
  ['policy/v1/PodDisruptionBudget', podDisruptionBudget],
]);
