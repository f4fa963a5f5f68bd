/**
 * What a Karpenter user meets first in `tenon serve`: their cluster name in the examples' ${CLUSTER_NAME}, an
 * upstream-shaped example applied with kubectl over the pre-installed objects, one Kubernetes version from the
 * API server to the AMIs and the kubelets (a pinned older AMI release included), and nodes whose ephemeral
 * storage is the root volume the EC2NodeClass asked for.
 */
import { describe, expect, it } from 'vitest';
import { Resources, type KubeObject, type Node } from '../../src/kube/index.js';
import { startPlayground, type Playground } from '../../src/sim/playground/playground.js';
import { hasKubectl, kubectlFor } from '../apiserver/kubectl-helpers.js';

const kubectlVersion = '1.33';

// The shape of Karpenter's examples/v1 general-purpose example: a NodePool over the EC2NodeClass "default".
const generalPurpose = `
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: general-purpose}
spec:
  template:
    spec:
      requirements:
        - {key: kubernetes.io/arch, operator: In, values: ["amd64"]}
        - {key: karpenter.sh/capacity-type, operator: In, values: ["on-demand"]}
        - {key: karpenter.k8s.aws/instance-category, operator: In, values: ["c", "m", "r"]}
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
  annotations: {kubernetes.io/description: "General purpose EC2NodeClass"}
spec:
  role: "KarpenterNodeRole-\${CLUSTER_NAME}"
  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: "\${CLUSTER_NAME}"}}]
  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: "\${CLUSTER_NAME}"}}]
  amiSelectorTerms: [{alias: "\${AMI_ALIAS}"}]
  blockDeviceMappings:
    - deviceName: /dev/xvda
      ebs: {volumeSize: 100Gi, volumeType: gp3}
`;

const workload = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: app, image: nginx, resources: {requests: {cpu: "1"}}}]
`;

function envsubst(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\{(\w+)\}/g, (_m, name: string) => vars[name] ?? '');
}

type Conditioned = KubeObject & {
  status?: { conditions?: Array<{ type: string; status: string; message?: string }>; amis?: Array<{ name?: string }> };
};

function ready(o: Conditioned | undefined): string | undefined {
  return o?.status?.conditions?.find((c) => c.type === 'Ready')?.status;
}

async function nodes(pg: Playground): Promise<Node[]> {
  return (await pg.clock.busy(pg.client.list<Node>(Resources.nodes))).items;
}

async function untilNodes(pg: Playground, count: number): Promise<Node[]> {
  for (let i = 0; i < 20 && (await nodes(pg)).filter((n) => n.status?.nodeInfo).length < count; i++)
    await pg.clock.advance(30_000);
  return nodes(pg);
}

describe.skipIf(!hasKubectl(kubectlVersion))('the first hour in tenon serve (kubectl)', () => {
  it('applies an upstream example for --cluster-name over the pre-installed objects, on one Kubernetes version, with the pinned AMI and root volume it asks for', async () => {
    const pg = await startPlayground({ clusterName: 'my-cluster', kubernetesVersion: '1.30' });
    if (!pg.server) throw new Error('the playground serves its own API server');
    const kubectl = kubectlFor(pg.server, kubectlVersion);
    try {
      const manifest = envsubst(generalPurpose, { CLUSTER_NAME: 'my-cluster', AMI_ALIAS: 'al2023@v20240625' });
      const applied = await kubectl.run(['apply', '-f', '-'], manifest);
      expect(applied.stderr).toBe('');
      expect(applied.stdout).toContain('ec2nodeclass.karpenter.k8s.aws/default configured');
      expect(applied.stdout).toContain('nodepool.karpenter.sh/general-purpose created');
      // The pre-installed NodePool would compete with the user's: deleting it is one command.
      expect((await kubectl.run(['delete', 'nodepool', 'default'])).code).toBe(0);

      const version = await kubectl.run(['version', '-o', 'json']);
      expect(JSON.parse(version.stdout)).toMatchObject({ serverVersion: { major: '1', minor: '30' } });

      await pg.clock.advance(10_000);
      const nodeClass = await pg.clock.busy(pg.client.get<Conditioned>(Resources.ec2NodeClasses, { name: 'default' }));
      expect(ready(nodeClass)).toBe('True');
      expect(nodeClass.status?.amis?.map((a) => a.name)).toContain(
        'amazon-eks-node-al2023-x86_64-standard-1.30-v20240625',
      );

      expect((await kubectl.run(['apply', '-f', '-'], workload)).code).toBe(0);
      const up = await untilNodes(pg, 1);
      expect(up.length).toBeGreaterThan(0);
      for (const n of up) {
        expect(n.metadata.labels?.['karpenter.sh/nodepool']).toBe('general-purpose');
        expect(n.status?.nodeInfo?.kubeletVersion).toMatch(/^v1\.30\./);
        expect(n.status?.capacity?.['ephemeral-storage']).toBe('100Gi');
      }
    } finally {
      kubectl.dispose();
      await pg.stop();
    }
  });
});
