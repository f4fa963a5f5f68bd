import { describe, expect, test } from 'vitest';
import { fullNodeClaim } from '../fixtures/index.js';
import { validateManifest, withEdits, type Edit } from './test-helpers.js';

/** kube-apiserver's cause when a schema error kept it from evaluating the CEL rules. */
const blocked =
  '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

const inv = (path: string, type: string, msg: string): string => `${path}: Invalid value: "${type}": ${msg}`;

describe('NodeClaim: valid manifests', () => {
  test('a NodeClaim using every field is accepted unchanged', () => {
    const { object, errors } = validateManifest(fullNodeClaim());
    expect(errors).toEqual([]);
    expect(object).toEqual(fullNodeClaim());
  });

  test('expireAfter defaults to 720h', () => {
    const { object } = validateManifest(withEdits(fullNodeClaim(), ['spec.expireAfter', undefined]));
    expect((object as { spec: { expireAfter: string } }).spec.expireAfter).toBe('720h');
  });

  test('a status update that keeps the spec passes the immutability rule', () => {
    const old = withEdits(fullNodeClaim(), ['status', undefined]);
    expect(validateManifest(fullNodeClaim(), old).errors).toEqual([]);
  });
});

const cases: Array<{ name: string; edits: Edit[]; errors: string[]; old?: Edit[] }> = [
  {
    name: 'empty nodeClassRef name',
    edits: [['spec.nodeClassRef.name', '']],
    errors: [inv('spec.nodeClassRef.name', 'string', 'name may not be empty')],
  },
  {
    name: 'empty nodeClassRef kind',
    edits: [['spec.nodeClassRef.kind', '']],
    errors: [inv('spec.nodeClassRef.kind', 'string', 'kind may not be empty')],
  },
  {
    name: 'empty nodeClassRef group',
    edits: [['spec.nodeClassRef.group', '']],
    errors: [inv('spec.nodeClassRef.group', 'string', 'group may not be empty')],
  },
  {
    name: 'spec changed on update',
    edits: [],
    old: [['spec.expireAfter', '1h']],
    errors: [inv('spec', 'object', 'spec is immutable')],
  },
  {
    name: 'resource request not a quantity',
    edits: [['spec.resources.requests', { cpu: 'x' }]],
    errors: [
      `spec.resources.requests.cpu: Invalid value: "x": spec.resources.requests.cpu in body should match '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$'`,
    ],
  },
  {
    name: 'condition status not supported',
    edits: [['status.conditions', [{ type: 'Ready', status: 'Maybe', lastTransitionTime: '2024-01-01T00:00:00Z' }]]],
    errors: [
      'status.conditions[0].status: Unsupported value: "Maybe": supported values: "True", "False", "Unknown"',
      blocked,
    ],
  },
  {
    name: 'requirement key in the AWS domain that is not a well-known label',
    edits: [['spec.requirements[0].key', 'karpenter.k8s.aws/bogus']],
    errors: [inv('spec.requirements[0].key', 'string', 'label domain "karpenter.k8s.aws" is restricted')],
  },
];

describe('NodeClaim: invalid', () => {
  test.each(cases)('$name', ({ edits, errors, old }) => {
    const oldObject = old ? withEdits(fullNodeClaim(), ...old) : undefined;
    expect(validateManifest(withEdits(fullNodeClaim(), ...edits), oldObject).errors.map((e) => e.message)).toEqual(
      errors,
    );
  });
});
