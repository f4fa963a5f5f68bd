import { describe, expect, test } from 'vitest';
import { EC2NodeClassSchema } from '../ec2nodeclass/schema.js';
import { NodeClaimSchema } from '../nodeclaim/schema.js';
import { NodePoolSchema } from '../nodepool/schema.js';
import { tenonCrds } from './index.js';
import {
  describeSchema,
  ec2NodeClassDescriptions,
  nodeClaimDescriptions,
  nodePoolDescriptions,
  schemaAt,
} from './descriptions.js';
import { toOpenApi } from './to-openapi.js';

describe('CRD descriptions', () => {
  test.each([
    ['NodePool', NodePoolSchema, nodePoolDescriptions],
    ['NodeClaim', NodeClaimSchema, nodeClaimDescriptions],
    ['EC2NodeClass', EC2NodeClassSchema, ec2NodeClassDescriptions],
  ] as const)('every described path of %s names a field of its schema', (_kind, schema, table) => {
    expect(describeSchema(toOpenApi(schema), table)).toEqual([]);
  });

  test('the published CRDs describe the kind, spec and the fields users set most', () => {
    const [pool, claim, nodeClass] = tenonCrds().map((c) => c.spec.versions[0]?.schema?.openAPIV3Schema ?? {});
    for (const [schema, paths] of [
      [
        pool,
        [
          '',
          'spec',
          'spec.disruption',
          'spec.disruption.budgets.nodes',
          'spec.template.spec.requirements.key',
          'spec.limits',
          'spec.weight',
        ],
      ],
      [claim, ['', 'spec.nodeClassRef', 'status.providerID']],
      [nodeClass, ['', 'spec.amiSelectorTerms.alias', 'spec.subnetSelectorTerms', 'spec.role']],
    ] as const) {
      for (const p of paths) expect(schema && schemaAt(schema, p)?.description, p).toMatch(/\w/);
    }
  });
});
