/** k8s.io/api core/v1 messages of a pod template: the parts `kubectl create deployment|job` fills in. */
import { objectMeta } from './meta-messages.js';
import { message, type MessageSpec } from './schema.js';

const containerPort = message('ContainerPort', {
  1: { name: 'name', type: 'string' },
  2: { name: 'hostPort', type: 'int' },
  3: { name: 'containerPort', type: 'int', keepZero: true },
  4: { name: 'protocol', type: 'string' },
  5: { name: 'hostIP', type: 'string' },
});

const envVar = message('EnvVar', {
  1: { name: 'name', type: 'string' },
  2: { name: 'value', type: 'string' },
});

const resourceRequirements = message('ResourceRequirements', {
  1: { name: 'limits', type: 'quantity', map: true },
  2: { name: 'requests', type: 'quantity', map: true },
});

const container = message('Container', {
  1: { name: 'name', type: 'string' },
  2: { name: 'image', type: 'string' },
  3: { name: 'command', type: 'string', list: true },
  4: { name: 'args', type: 'string', list: true },
  5: { name: 'workingDir', type: 'string' },
  6: { name: 'ports', type: containerPort, list: true },
  7: { name: 'env', type: envVar, list: true },
  8: { name: 'resources', type: resourceRequirements },
  13: { name: 'terminationMessagePath', type: 'string' },
  14: { name: 'imagePullPolicy', type: 'string' },
  16: { name: 'stdin', type: 'bool' },
  17: { name: 'stdinOnce', type: 'bool' },
  18: { name: 'tty', type: 'bool' },
  20: { name: 'terminationMessagePolicy', type: 'string' },
});

const toleration = message('Toleration', {
  1: { name: 'key', type: 'string' },
  2: { name: 'operator', type: 'string' },
  3: { name: 'value', type: 'string' },
  4: { name: 'effect', type: 'string' },
  5: { name: 'tolerationSeconds', type: 'int', keepZero: true },
});

/** core/v1 LocalObjectReference. */
export const localObjectReference: MessageSpec = message('LocalObjectReference', { 1: { name: 'name', type: 'string' } });

const podSpec = message('PodSpec', {
  2: { name: 'containers', type: container, list: true },
  3: { name: 'restartPolicy', type: 'string' },
  4: { name: 'terminationGracePeriodSeconds', type: 'int', keepZero: true },
  5: { name: 'activeDeadlineSeconds', type: 'int', keepZero: true },
  6: { name: 'dnsPolicy', type: 'string' },
  7: { name: 'nodeSelector', type: 'string', map: true },
  8: { name: 'serviceAccountName', type: 'string' },
  9: { name: 'serviceAccount', type: 'string' },
  10: { name: 'nodeName', type: 'string' },
  11: { name: 'hostNetwork', type: 'bool' },
  12: { name: 'hostPID', type: 'bool' },
  13: { name: 'hostIPC', type: 'bool' },
  15: { name: 'imagePullSecrets', type: localObjectReference, list: true },
  16: { name: 'hostname', type: 'string' },
  17: { name: 'subdomain', type: 'string' },
  19: { name: 'schedulerName', type: 'string' },
  20: { name: 'initContainers', type: container, list: true },
  22: { name: 'tolerations', type: toleration, list: true },
  24: { name: 'priorityClassName', type: 'string' },
  25: { name: 'priority', type: 'int', keepZero: true },
});

/** core/v1 PodTemplateSpec. */
export const podTemplateSpec: MessageSpec = message('PodTemplateSpec', {
  1: { name: 'metadata', type: objectMeta },
  2: { name: 'spec', type: podSpec },
});
