/**
 * charts/tenon against the real control plane: `helm lint`, `helm template`, and every rendered object accepted
 * by the API server (`kubectl apply --dry-run=server`: admission, schemas and RBAC escalation checks included).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartDir, helm, kubectl, renderChart, type Rendered } from './chart.js';

const ns = 'tenon-chart-render';

beforeAll(async () => {
  await helm(['version', '--short']);
  await kubectl(['create', 'namespace', ns]);
}, 1_800_000);

afterAll(async () => {
  await kubectl(['delete', 'namespace', ns, '--wait=false']).catch(() => '');
});

describe('charts/tenon', () => {
  it('passes helm lint', async () => {
    const out = await helm(['lint', chartDir, '--strict', '--set', 'settings.clusterName=test']);
    expect(out).toMatch(/1 chart\(s\) linted, 0 chart\(s\) failed/);
  });

  it('renders a Deployment as Karpenter users expect it', async () => {
    const { objects } = await renderChart(ns, {
      'settings.clusterName': 'test',
      'settings.interruptionQueue': 'test-queue',
      'settings.isolatedVPC': 'true',
      'serviceAccount.annotations.eks\\.amazonaws\\.com/role-arn': 'arn:aws:iam::111122223333:role/tenon',
    });
    expect(objects.map((o) => o.kind).sort()).toEqual([
      'ClusterRole',
      'ClusterRoleBinding',
      'Deployment',
      'PodDisruptionBudget',
      'Role',
      'RoleBinding',
      'Service',
      'ServiceAccount',
    ]);
    const deployment = objects.find((o) => o.kind === 'Deployment') as Rendered & { spec: DeploymentSpec };
    const pod = deployment.spec.template.spec;
    const container = pod.containers[0];
    expect(deployment.spec.replicas).toBe(2);
    expect(pod.priorityClassName).toBe('system-cluster-critical');
    expect(container?.securityContext).toMatchObject({
      readOnlyRootFilesystem: true,
      allowPrivilegeEscalation: false,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(container?.readinessProbe?.httpGet.path).toBe('/readyz');
    expect(container?.livenessProbe?.httpGet.path).toBe('/healthz');
    const env = Object.fromEntries(
      (container?.env ?? []).filter((e) => e.value !== undefined).map((e) => [e.name, e.value]),
    );
    expect(env).toMatchObject({
      CLUSTER_NAME: 'test',
      INTERRUPTION_QUEUE: 'test-queue',
      ISOLATED_VPC: 'true',
      METRICS_PORT: '8080',
      HEALTH_PROBE_PORT: '8081',
      BIND_ADDRESS: '0.0.0.0',
      LEADER_ELECTION_NAME: 'tenon-leader-election',
    });
    const sa = objects.find((o) => o.kind === 'ServiceAccount') as Rendered & {
      metadata: { annotations?: Record<string, string> };
    };
    expect(sa.metadata.annotations?.['eks.amazonaws.com/role-arn']).toBe('arn:aws:iam::111122223333:role/tenon');
  });

  it('renders objects the API server accepts (dry-run=server)', async () => {
    const { yaml } = await renderChart(ns, { 'settings.clusterName': 'test', 'serviceMonitor.enabled': 'false' });
    const out = await kubectl(['apply', '--dry-run=server', '-f', '-'], yaml);
    expect(
      out
        .trim()
        .split('\n')
        .every((l) => /\(server dry run\)$/.test(l)),
    ).toBe(true);
    expect(out.trim().split('\n')).toHaveLength(8);
  });
});

interface DeploymentSpec {
  replicas: number;
  template: {
    spec: {
      priorityClassName?: string;
      containers: Array<{
        env?: Array<{ name: string; value?: string }>;
        securityContext?: Record<string, unknown>;
        readinessProbe?: { httpGet: { path: string } };
        livenessProbe?: { httpGet: { path: string } };
      }>;
    };
  };
}
