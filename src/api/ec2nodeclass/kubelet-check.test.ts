import { describe, expect, test } from 'vitest';
import { minimalEC2NodeClass } from '../fixtures/index.js';
import { validateManifest, withEdits } from '../crds/test-helpers.js';
import { checkKubelet } from './kubelet-check.js';

const inv = (path: string, type: string, msg: string): string => `${path}: Invalid value: "${type}": ${msg}`;

// Karpenter's kubelet rules, which v1.15 checks in the controller (ValidationSucceeded) instead of at admission.
const cases: Array<{ name: string; kubelet: Record<string, unknown>; errors: string[] }> = [
  {
    name: 'unknown eviction signal',
    kubelet: { evictionHard: { foo: '1%' } },
    errors: [
      inv(
        'spec.kubelet.evictionHard',
        'object',
        "valid keys for evictionHard are ['memory.available','nodefs.available','nodefs.inodesFree','imagefs.available','imagefs.inodesFree','pid.available']",
      ),
    ],
  },
  {
    name: 'soft eviction without a matching grace period',
    kubelet: { evictionSoft: { 'memory.available': '5%' }, evictionSoftGracePeriod: { 'nodefs.available': '1m' } },
    errors: [
      inv('spec.kubelet', 'object', 'evictionSoft OwnerKey does not have a matching evictionSoftGracePeriod'),
      inv('spec.kubelet', 'object', 'evictionSoftGracePeriod OwnerKey does not have a matching evictionSoft'),
    ],
  },
  {
    name: 'image GC high not above low',
    kubelet: { imageGCHighThresholdPercent: 50, imageGCLowThresholdPercent: 60 },
    errors: [
      inv('spec.kubelet', 'object', 'imageGCHighThresholdPercent must be greater than imageGCLowThresholdPercent'),
    ],
  },
  {
    name: 'image GC high above 100',
    kubelet: { imageGCHighThresholdPercent: 101 },
    errors: [
      'spec.kubelet.imageGCHighThresholdPercent: Invalid value: 101: spec.kubelet.imageGCHighThresholdPercent in body should be less than or equal to 100',
    ],
  },
  {
    name: 'negative maxPods',
    kubelet: { maxPods: -1 },
    errors: [
      'spec.kubelet.maxPods: Invalid value: -1: spec.kubelet.maxPods in body should be greater than or equal to 0',
    ],
  },
  {
    name: 'kubeReserved gpu',
    kubelet: { kubeReserved: { gpu: '1' } },
    errors: [
      inv(
        'spec.kubelet.kubeReserved',
        'object',
        "valid keys for kubeReserved are ['cpu','memory','ephemeral-storage','pid']",
      ),
    ],
  },
  {
    name: 'negative systemReserved',
    kubelet: { systemReserved: { cpu: '-1' } },
    errors: [
      inv('spec.kubelet.systemReserved', 'object', 'systemReserved value cannot be a negative resource quantity'),
    ],
  },
  {
    name: 'evictionHard value not a quantity or percentage',
    kubelet: { evictionHard: { 'memory.available': 'lots' } },
    errors: [
      `spec.kubelet.evictionHard.memory.available: Invalid value: "lots": spec.kubelet.evictionHard.memory.available in body should match '^((\\d{1,2}(\\.\\d{1,2})?|100(\\.0{1,2})?)%||(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?)$'`,
    ],
  },
];

describe('spec.kubelet: checked by the controller, accepted by the CRD', () => {
  test.each(cases)('$name', ({ kubelet, errors }) => {
    const checked = checkKubelet(kubelet);
    expect(checked.ok ? [] : checked.errors.map((e) => e.message)).toEqual(errors);
    expect(validateManifest(withEdits(minimalEC2NodeClass(), ['spec.kubelet', kubelet])).errors).toEqual([]);
  });

  test('valid settings and fields Tenon does not read pass, and are kept by the CRD', () => {
    const kubelet = {
      maxPods: 58,
      kubeReserved: { cpu: '100m' },
      serializeImagePulls: false,
      featureGates: { Foo: true },
    };
    expect(checkKubelet(kubelet)).toEqual({ ok: true, kubelet });
    const { object } = validateManifest(withEdits(minimalEC2NodeClass(), ['spec.kubelet', kubelet]));
    expect((object as { spec: { kubelet: unknown } }).spec.kubelet).toEqual(kubelet);
  });
});
