import { describe, expect, test } from 'vitest';
import { fullNodePool, minimalNodePool } from '../fixtures/index.js';
import { validateManifest, withEdits, type Edit } from './test-helpers.js';

/** kube-apiserver's cause when a schema error kept it from evaluating the CEL rules. */
const blocked =
  '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

const req = 'spec.template.spec.requirements';
const labels = 'spec.template.metadata.labels';
const inv = (path: string, type: string, msg: string): string => `${path}: Invalid value: "${type}": ${msg}`;
const gtMessage = "requirements operator 'Gt', 'Lt', 'Gte', or 'Lte' must have a single positive integer value";
const keyRule = (msg: string): string => inv(`${req}[0].key`, 'string', msg);
const labelRule = (msg: string): string => inv(labels, 'object', msg);

describe('NodePool: valid manifests', () => {
  test('a NodePool using every field is accepted unchanged', () => {
    const { object, errors } = validateManifest(fullNodePool());
    expect(errors).toEqual([]);
    expect(object).toEqual(fullNodePool());
  });

  test('a minimal NodePool gets upstream defaults: disruption, budgets and expireAfter', () => {
    const { object, errors } = validateManifest(minimalNodePool());
    expect(errors).toEqual([]);
    const spec = (object as { spec: Record<string, { spec?: Record<string, unknown> } | unknown> }).spec;
    expect(spec.disruption).toEqual({
      consolidateAfter: '0s',
      consolidationPolicy: 'WhenEmptyOrUnderutilized',
      budgets: [{ nodes: '10%' }],
    });
    expect((spec.template as { spec: Record<string, unknown> }).spec.expireAfter).toBe('720h');
  });

  test('a budget without nodes gets 10%; a partial disruption keeps its own values', () => {
    const np = withEdits(minimalNodePool(), [
      'spec.disruption',
      { consolidateAfter: '5m', budgets: [{ reasons: ['Empty'] }] },
    ]);
    const { object, errors } = validateManifest(np);
    expect(errors).toEqual([]);
    expect((object as { spec: { disruption: unknown } }).spec.disruption).toEqual({
      consolidateAfter: '5m',
      consolidationPolicy: 'WhenEmptyOrUnderutilized',
      budgets: [{ reasons: ['Empty'], nodes: '10%' }],
    });
  });

  test('unknown fields are pruned, as kube-apiserver does', () => {
    const np = withEdits(minimalNodePool(), ['spec.template.spec.kubelet', { maxPods: 10 }], ['spec.bogus', 1]);
    const { object, errors } = validateManifest(np);
    expect(errors).toEqual([]);
    expect(JSON.stringify(object)).not.toContain('kubelet');
    expect(JSON.stringify(object)).not.toContain('bogus');
  });

  test('requirement keys in allowed domains are accepted', () => {
    for (const key of [
      'node.kubernetes.io/instance-type',
      'karpenter.sh/capacity-type',
      'kops.k8s.io/x',
      'node-restriction.kubernetes.io/x',
      'karpenter.k8s.aws/instance-size',
      'example.com/x',
    ]) {
      expect(validateManifest(withEdits(minimalNodePool(), [`${req}[0].key`, key])).errors).toEqual([]);
    }
  });
});

interface Case {
  name: string;
  edits: Edit[];
  errors: string[];
}

const requirementCases: Case[] = [
  {
    name: 'operator not in the enum',
    edits: [[`${req}[0].operator`, 'Equals']],
    errors: [
      `${req}[0].operator: Unsupported value: "Equals": supported values: "In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Gte", "Lte"`,
      blocked,
    ],
  },
  {
    name: 'key not a qualified name',
    edits: [[`${req}[0].key`, 'Bad Key!']],
    errors: [
      inv(
        `${req}[0].key`,
        'Bad Key!',
        `${req}[0].key in body should match '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\\/))?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$'`,
      ),
    ],
  },
  {
    name: 'key longer than 316',
    edits: [[`${req}[0].key`, 'a'.repeat(317)]],
    errors: [`${req}[0].key: Too long: may not be more than 316 bytes`, blocked],
  },
  {
    name: 'karpenter.sh domain',
    edits: [[`${req}[0].key`, 'karpenter.sh/foo']],
    errors: [keyRule('label domain "karpenter.sh" is restricted')],
  },
  {
    name: 'karpenter.sh/nodepool key',
    edits: [[`${req}[0].key`, 'karpenter.sh/nodepool']],
    errors: [keyRule('label "karpenter.sh/nodepool" is restricted')],
  },
  {
    name: 'kubernetes.io/hostname key',
    edits: [[`${req}[0].key`, 'kubernetes.io/hostname']],
    errors: [keyRule('label "kubernetes.io/hostname" is restricted')],
  },
  {
    name: 'karpenter.k8s.aws domain',
    edits: [[`${req}[0].key`, 'karpenter.k8s.aws/foo']],
    errors: [keyRule('label domain "karpenter.k8s.aws" is restricted')],
  },
  {
    name: 'In without values',
    edits: [[`${req}[0].values`, []]],
    errors: [inv(req, 'array', "requirements with operator 'In' must have a value defined")],
  },
  {
    name: 'Gt with two values',
    edits: [
      [`${req}[0].operator`, 'Gt'],
      [`${req}[0].values`, ['1', '2']],
    ],
    errors: [inv(req, 'array', gtMessage)],
  },
  {
    name: 'Lt with a negative value',
    edits: [
      [`${req}[0].operator`, 'Lt'],
      [`${req}[0].values`, ['-1']],
    ],
    errors: [inv(req, 'array', gtMessage)],
  },
  {
    name: 'Gte without a value',
    edits: [
      [`${req}[0].operator`, 'Gte'],
      [`${req}[0].values`, []],
    ],
    errors: [inv(req, 'array', gtMessage)],
  },
  {
    name: 'Lte with two values',
    edits: [
      [`${req}[0].operator`, 'Lte'],
      [`${req}[0].values`, ['1', '2']],
    ],
    errors: [inv(req, 'array', gtMessage)],
  },
  {
    name: 'minValues above the number of values',
    edits: [[`${req}[0].minValues`, 2]],
    errors: [
      inv(
        req,
        'array',
        "requirements with 'minValues' must have at least that many values specified in the 'values' field",
      ),
    ],
  },
  {
    name: 'minValues 0',
    edits: [[`${req}[0].minValues`, 0]],
    errors: [`${req}[0].minValues: Invalid value: 0: ${req}[0].minValues in body should be greater than or equal to 1`],
  },
  {
    name: 'minValues 51',
    edits: [[`${req}[0].minValues`, 51]],
    errors: [
      `${req}[0].minValues: Invalid value: 51: ${req}[0].minValues in body should be less than or equal to 50`,
      inv(
        req,
        'array',
        "requirements with 'minValues' must have at least that many values specified in the 'values' field",
      ),
    ],
  },
  {
    name: 'more than 100 requirements',
    edits: [[req, Array.from({ length: 101 }, (_, i) => ({ key: `example.com/k${i}`, operator: 'Exists' }))]],
    errors: [`${req}: Too many: 101: must have at most 100 items`, blocked],
  },
  { name: 'requirements missing', edits: [[req, undefined]], errors: [`${req}: Required value`, blocked] },
  {
    // As in kube-apiserver, the list rules still run and fail to evaluate on the missing field.
    name: 'requirement without operator',
    edits: [[`${req}[0].operator`, undefined]],
    errors: [`${req}[0].operator: Required value`, blocked],
  },
];

const templateCases: Case[] = [
  {
    name: 'nodeClassRef missing',
    edits: [['spec.template.spec.nodeClassRef', undefined]],
    errors: ['spec.template.spec.nodeClassRef: Required value', blocked],
  },
  {
    name: 'nodeClassRef without group',
    edits: [['spec.template.spec.nodeClassRef.group', undefined]],
    errors: ['spec.template.spec.nodeClassRef.group: Required value', blocked],
  },
  {
    name: 'nodeClassRef without kind',
    edits: [['spec.template.spec.nodeClassRef.kind', undefined]],
    errors: ['spec.template.spec.nodeClassRef.kind: Required value', blocked],
  },
  {
    name: 'nodeClassRef group with a version',
    edits: [['spec.template.spec.nodeClassRef.group', 'karpenter.k8s.aws/v1']],
    errors: [
      `spec.template.spec.nodeClassRef.group: Invalid value: "karpenter.k8s.aws/v1": spec.template.spec.nodeClassRef.group in body should match '^[^/]*$'`,
    ],
  },
  {
    name: 'template missing',
    edits: [['spec.template', undefined]],
    errors: ['spec.template: Required value', blocked],
  },
  {
    name: 'template spec missing',
    edits: [['spec.template.spec', undefined]],
    errors: ['spec.template.spec: Required value', blocked],
  },
  { name: 'spec missing', edits: [['spec', undefined]], errors: ['spec: Required value', blocked] },
  {
    name: 'taint effect not supported',
    edits: [['spec.template.spec.taints', [{ key: 'a', effect: 'NoWay' }]]],
    errors: [
      'spec.template.spec.taints[0].effect: Unsupported value: "NoWay": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
      blocked,
    ],
  },
  {
    name: 'taint without effect',
    edits: [['spec.template.spec.taints', [{ key: 'a' }]]],
    errors: ['spec.template.spec.taints[0].effect: Required value', blocked],
  },
  {
    name: 'taint with an empty key',
    edits: [['spec.template.spec.taints', [{ key: '', effect: 'NoSchedule' }]]],
    errors: [
      'spec.template.spec.taints[0].key: Invalid value: "": spec.template.spec.taints[0].key in body should be at least 1 chars long',
      `spec.template.spec.taints[0].key: Invalid value: "": spec.template.spec.taints[0].key in body should match '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\\/))?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$'`,
    ],
  },
  {
    name: 'taint value with a space',
    edits: [['spec.template.spec.taints', [{ key: 'a', value: 'a b', effect: 'NoSchedule' }]]],
    errors: [
      `spec.template.spec.taints[0].value: Invalid value: "a b": spec.template.spec.taints[0].value in body should match '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*(\\/))?([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$'`,
    ],
  },
  {
    name: 'startup taint timeAdded not a date-time',
    edits: [['spec.template.spec.startupTaints', [{ key: 'a', effect: 'NoExecute', timeAdded: 'today' }]]],
    errors: [
      'spec.template.spec.startupTaints[0].timeAdded: Invalid value: "today": spec.template.spec.startupTaints[0].timeAdded in body must be of type date-time: "today"',
    ],
  },
  {
    name: 'expireAfter in days',
    edits: [['spec.template.spec.expireAfter', '30d']],
    errors: [
      `spec.template.spec.expireAfter: Invalid value: "30d": spec.template.spec.expireAfter in body should match '^(([0-9]+(s|m|h))+|Never)$'`,
    ],
  },
  {
    name: 'terminationGracePeriod Never',
    edits: [['spec.template.spec.terminationGracePeriod', 'Never']],
    errors: [
      `spec.template.spec.terminationGracePeriod: Invalid value: "Never": spec.template.spec.terminationGracePeriod in body should match '^([0-9]+(s|m|h))+$'`,
    ],
  },
  {
    name: 'label value too long',
    edits: [[`${labels}.team`, 'a'.repeat(64)]],
    errors: [`${labels}.team: Too long: may not be more than 63 bytes`, blocked],
  },
  {
    name: 'label value starting with a dash',
    edits: [[`${labels}.team`, '-web']],
    errors: [
      `${labels}.team: Invalid value: "-web": ${labels}.team in body should match '^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$'`,
    ],
  },
  {
    name: 'label in karpenter.sh',
    edits: [[labels, { 'karpenter.sh/foo': 'x' }]],
    errors: [labelRule('label domain "karpenter.sh" is restricted')],
  },
  {
    name: 'label karpenter.sh/nodepool',
    edits: [[labels, { 'karpenter.sh/nodepool': 'x' }]],
    errors: [labelRule('label "karpenter.sh/nodepool" is restricted')],
  },
  {
    name: 'label kubernetes.io/hostname',
    edits: [[labels, { 'kubernetes.io/hostname': 'x' }]],
    errors: [labelRule('label "kubernetes.io/hostname" is restricted')],
  },
  {
    name: 'label in karpenter.k8s.aws',
    edits: [[labels, { 'karpenter.k8s.aws/foo': 'x' }]],
    errors: [labelRule('label domain "karpenter.k8s.aws" is restricted')],
  },
  {
    name: 'more than 100 labels',
    edits: [[labels, Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`l${i}`, 'x']))]],
    errors: [`${labels}: Too many: 101: must have at most 100 items`, blocked],
  },
];

const disruptionCases: Case[] = [
  {
    name: 'consolidationPolicy from v1beta1',
    edits: [['spec.disruption', { consolidationPolicy: 'WhenUnderutilized', consolidateAfter: '0s' }]],
    errors: [
      'spec.disruption.consolidationPolicy: Unsupported value: "WhenUnderutilized": supported values: "WhenEmpty", "WhenEmptyOrUnderutilized", "Balanced"',
      blocked,
    ],
  },
  {
    name: 'consolidateAfter not a duration',
    edits: [['spec.disruption', { consolidateAfter: 'soon' }]],
    errors: [
      `spec.disruption.consolidateAfter: Invalid value: "soon": spec.disruption.consolidateAfter in body should match '^(([0-9]+(s|m|h))+|Never)$'`,
    ],
  },
  {
    name: 'budget above 100%',
    edits: [['spec.disruption', { consolidateAfter: '0s', budgets: [{ nodes: '110%' }] }]],
    errors: [
      `spec.disruption.budgets[0].nodes: Invalid value: "110%": spec.disruption.budgets[0].nodes in body should match '^((100|[0-9]{1,2})%|[0-9]+)$'`,
    ],
  },
  {
    name: 'budget schedule without duration',
    edits: [['spec.disruption', { consolidateAfter: '0s', budgets: [{ nodes: '1', schedule: '@daily' }] }]],
    errors: [inv('spec.disruption.budgets', 'array', "'schedule' must be set with 'duration'")],
  },
  {
    name: 'budget duration in seconds',
    edits: [
      ['spec.disruption', { consolidateAfter: '0s', budgets: [{ nodes: '1', schedule: '@daily', duration: '30s' }] }],
    ],
    errors: [
      `spec.disruption.budgets[0].duration: Invalid value: "30s": spec.disruption.budgets[0].duration in body should match '^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$'`,
    ],
  },
  {
    name: 'budget schedule with three fields',
    edits: [
      ['spec.disruption', { consolidateAfter: '0s', budgets: [{ nodes: '1', schedule: '* * *', duration: '1h' }] }],
    ],
    errors: [
      `spec.disruption.budgets[0].schedule: Invalid value: "* * *": spec.disruption.budgets[0].schedule in body should match '^(@(annually|yearly|monthly|weekly|daily|midnight|hourly))|((.+)\\s(.+)\\s(.+)\\s(.+)\\s(.+))$'`,
    ],
  },
  {
    name: 'budget reason not supported',
    edits: [['spec.disruption', { consolidateAfter: '0s', budgets: [{ nodes: '1', reasons: ['Expired'] }] }]],
    errors: [
      'spec.disruption.budgets[0].reasons[0]: Unsupported value: "Expired": supported values: "Underutilized", "Empty", "Drifted", "Unhealthy"',
      blocked,
    ],
  },
  {
    name: 'more than 50 budgets',
    edits: [
      ['spec.disruption', { consolidateAfter: '0s', budgets: Array.from({ length: 51 }, () => ({ nodes: '1' })) }],
    ],
    errors: ['spec.disruption.budgets: Too many: 51: must have at most 50 items', blocked],
  },
  {
    name: 'weight 0',
    edits: [['spec.weight', 0]],
    errors: ['spec.weight: Invalid value: 0: spec.weight in body should be greater than or equal to 1'],
  },
  {
    name: 'weight 101',
    edits: [['spec.weight', 101]],
    errors: ['spec.weight: Invalid value: 101: spec.weight in body should be less than or equal to 100'],
  },
  {
    name: 'weight as a string',
    edits: [['spec.weight', 'high']],
    errors: ['spec.weight: Invalid value: "string": spec.weight in body must be of type integer: "string"', blocked],
  },
  {
    name: 'limit not a quantity',
    edits: [['spec.limits', { cpu: 'lots' }]],
    errors: [
      `spec.limits.cpu: Invalid value: "lots": spec.limits.cpu in body should match '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$'`,
    ],
  },
];

describe.each([
  ['requirements', requirementCases],
  ['template', templateCases],
  ['disruption, weight and limits', disruptionCases],
])('NodePool: invalid %s', (_group, cases) => {
  test.each(cases)('$name', ({ edits, errors }) => {
    expect(validateManifest(withEdits(minimalNodePool(), ...edits)).errors.map((e) => e.message)).toEqual(errors);
  });
});
