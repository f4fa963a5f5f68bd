/** Server-side apply field ownership: conflicts between managers, --force-conflicts, removal of fields no longer applied. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, kubectlFor, type Kubectl } from './kubectl-helpers.js';
import { startHarness, type Harness } from './helpers.js';

interface Reply {
  status: number;
  body: {
    message?: string;
    reason?: string;
    details?: { causes?: Array<{ reason?: string; message?: string; field?: string }> };
    spec?: Record<string, unknown>;
    metadata?: { managedFields?: Array<{ manager: string; operation: string; fieldsV1: unknown }> };
  };
}

async function apply(h: Harness, manager: string, body: unknown, force = false): Promise<Reply> {
  const res = await h.client.transport.request({
    method: 'PATCH',
    path: '/apis/apps/v1/namespaces/default/deployments/web',
    query: { fieldManager: manager, ...(force ? { force: 'true' } : {}) },
    body: JSON.stringify(body),
    contentType: 'application/apply-patch+yaml',
  });
  return { status: res.status, body: JSON.parse(res.body) as Reply['body'] };
}

function deployment(spec: { replicas?: number; containers: Array<{ name: string; image: string }> }): unknown {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web' },
    spec: {
      ...(spec.replicas === undefined ? {} : { replicas: spec.replicas }),
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: spec.containers } },
    },
  };
}

describe('server-side apply field ownership', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.server.close();
  });

  it('refuses to change a field another manager owns, naming it, until forced', async () => {
    expect(
      (await apply(h, 'team-a', deployment({ replicas: 2, containers: [{ name: 'app', image: 'nginx:1' }] }))).status,
    ).toBe(201);
    const refused = await apply(
      h,
      'team-b',
      deployment({ replicas: 3, containers: [{ name: 'app', image: 'nginx:2' }] }),
    );
    expect(refused.status).toBe(409);
    expect(refused.body.reason).toBe('Conflict');
    expect(refused.body.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "team-a":\n- .spec.replicas\n- .spec.template.spec.containers[name="app"].image',
    );
    expect(refused.body.details?.causes).toContainEqual({
      reason: 'FieldManagerConflict',
      message: 'conflict with "team-a"',
      field: '.spec.replicas',
    });
    // The same values are co-owned without a conflict.
    expect(
      (await apply(h, 'team-c', deployment({ replicas: 2, containers: [{ name: 'app', image: 'nginx:1' }] }))).status,
    ).toBe(200);
    const forced = await apply(
      h,
      'team-b',
      deployment({ replicas: 3, containers: [{ name: 'app', image: 'nginx:2' }] }),
      true,
    );
    expect(forced.status).toBe(200);
    expect(forced.body.spec).toMatchObject({ replicas: 3 });
    const teamA = forced.body.metadata?.managedFields?.find((m) => m.manager === 'team-a');
    expect(JSON.stringify(teamA?.fieldsV1)).not.toContain('f:replicas');
  });

  it('removes the fields and list items a manager stops applying, unless someone else owns them', async () => {
    const two = [
      { name: 'app', image: 'nginx:2' },
      { name: 'sidecar', image: 'envoy:1' },
    ];
    expect((await apply(h, 'team-b', deployment({ replicas: 3, containers: two }), true)).status).toBe(200);
    const one = await apply(h, 'team-b', deployment({ containers: [{ name: 'app', image: 'nginx:2' }] }));
    expect(one.status).toBe(200);
    const containers = (one.body.spec?.template as { spec: { containers: Array<{ name: string }> } }).spec.containers;
    expect(containers.map((c) => c.name)).toEqual(['app']);
    // team-b no longer applies replicas and owned it alone: it goes (the server defaults it back to 1).
    expect(one.body.spec).toMatchObject({ replicas: 1 });
  });
});

describe.runIf(hasKubectl('1.33'))('kubectl 1.33 apply --server-side after client-side apply', () => {
  let h: Harness;
  let k: Kubectl;
  beforeAll(async () => {
    h = await startHarness();
    k = kubectlFor(h.server, '1.33');
  });
  afterAll(async () => {
    k.dispose();
    await h.server.close();
  });

  const nodePool = (weight?: number): string => `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: general
spec:
${weight === undefined ? '' : `  weight: ${weight}\n`}  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
      - {key: karpenter.sh/capacity-type, operator: In, values: [spot]}
`;

  it('takes over client-side-applied fields, drops fields no longer applied, and reports conflicts like kube-apiserver', async () => {
    expect((await k.run(['apply', '-f', '-'], nodePool(1))).code).toBe(0);
    expect((await k.run(['apply', '-f', '-'], nodePool(2))).code).toBe(0);
    const ssa = await k.run(['apply', '--server-side', '-f', '-'], nodePool(4));
    expect(ssa.stderr).toBe('');
    expect(ssa.stdout).toContain('serverside-applied');
    expect((await k.run(['get', 'nodepool', 'general', '-o', 'jsonpath={.spec.weight}'])).stdout).toBe('4');
    const managers = (
      await k.run(['get', 'nodepool', 'general', '-o', 'jsonpath={.metadata.managedFields[*].manager}'])
    ).stdout.split(' ');
    expect(managers).toContain('kubectl');
    expect(managers).not.toContain('kubectl-client-side-apply');

    expect((await k.run(['apply', '--server-side', '-f', '-'], nodePool())).code).toBe(0);
    expect((await k.run(['get', 'nodepool', 'general', '-o', 'jsonpath={.spec.weight}'])).stdout).toBe('');

    expect((await k.run(['patch', 'nodepool', 'general', '--type=merge', '-p', '{"spec":{"weight":7}}'])).code).toBe(0);
    const refused = await k.run(['apply', '--server-side', '-f', '-'], nodePool(8));
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'error: Apply failed with 1 conflict: conflict with "kubectl-patch" using karpenter.sh/v1: .spec.weight',
    );
    expect((await k.run(['apply', '--server-side', '--force-conflicts', '-f', '-'], nodePool(8))).code).toBe(0);
    expect((await k.run(['get', 'nodepool', 'general', '-o', 'jsonpath={.spec.weight}'])).stdout).toBe('8');
  });
});
