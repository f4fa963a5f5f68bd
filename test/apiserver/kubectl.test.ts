import { describe, expect, it } from 'vitest';
import { eventually } from './helpers.js';
import { hasKubectl, kubectlOnServer } from './kubectl-helpers.js';

const deployment = (replicas: number): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: app
        image: nginx:1.27
`;

const nodePool = (weight: number): string => `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: general
spec:
  weight: ${weight}
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
      - {key: karpenter.sh/capacity-type, operator: In, values: [spot]}
`;

const node = `apiVersion: v1
kind: Node
metadata:
  name: n1
  labels: {kubernetes.io/hostname: n1}
status:
  conditions:
  - {type: Ready, status: "True", reason: KubeletReady, message: ok}
  nodeInfo: {kubeletVersion: v1.33.1}
`;

// Each version runs against a server reporting that version, as /usr/bin/kubectl's dispatcher would pick it.
for (const version of ['1.27', '1.32', '1.33']) {
  describe.runIf(hasKubectl(version))(`kubectl ${version}`, () => {
    const k = kubectlOnServer(version, { kubernetesVersion: `v${version}.4` });

    it('lists api-resources with short names, including the CRDs', async () => {
      const r = await k.run(['api-resources']);
      expect(r.stderr).toBe('');
      expect(r.stdout).toMatch(/nodepools\s+karpenter\.sh\/v1\s+false\s+NodePool/);
      expect(r.stdout).toMatch(/pods\s+po\s+v1\s+true\s+Pod/);
    });

    it('applies a Deployment and a NodePool twice, then server-side', async () => {
      expect((await k.run(['apply', '-f', '-'], deployment(2))).stdout).toContain('deployment.apps/web created');
      expect((await k.run(['apply', '-f', '-'], deployment(2))).stdout).toContain('deployment.apps/web unchanged');
      expect((await k.run(['apply', '-f', '-'], deployment(3))).stdout).toContain('deployment.apps/web configured');
      expect((await k.run(['apply', '-f', '-'], nodePool(1))).stdout).toContain(
        'nodepool.karpenter.sh/general created',
      );
      expect((await k.run(['apply', '-f', '-'], nodePool(2))).stdout).toContain(
        'nodepool.karpenter.sh/general configured',
      );
      expect((await k.run(['apply', '--server-side', '-f', '-'], nodePool(4))).stdout).toContain('serverside-applied');
      const weight = await k.run(['get', 'nodepool', 'general', '-o', 'jsonpath={.spec.weight}']);
      expect(weight.stdout).toBe('4');
    });

    it('prints the CRD printer columns and built-in columns, wide and yaml', async () => {
      const np = await k.run(['get', 'nodepools', '-o', 'wide']);
      expect(np.stdout).toMatch(/NAME\s+NODECLASS\s+NODES\s+READY\s+AGE\s+WEIGHT\s+CPU\s+MEMORY/);
      expect(np.stdout).toMatch(/general\s+default/);
      const deploy = await k.run(['get', 'deploy']);
      expect(deploy.stdout).toMatch(/NAME\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+AGE/);
      const yaml = await k.run(['get', 'deploy', 'web', '-o', 'yaml']);
      expect(yaml.stdout).toContain('replicas: 3');
    });

    it('explains nodepool.spec from the OpenAPI schema', async () => {
      const r = await k.run(['explain', 'nodepool.spec']);
      expect(r.stdout).toContain('KIND:       NodePool');
      expect(r.stdout).toContain('disruption');
    });

    it('rejects an invalid NodePool with the kube-apiserver message', async () => {
      const bad = nodePool(1).replace('operator: In', 'operator: Equals');
      const r = await k.run(['apply', '-f', '-'], bad);
      expect(r.code).not.toBe(0);
      // Two causes, one a line each: the enum error, and that the CEL rules were not checked because of it.
      expect(r.stderr).toContain('The NodePool "general" is invalid: \n');
      expect(r.stderr).toContain('* spec.template.spec.requirements[0].operator: Unsupported value: "Equals"');
      expect(r.stderr).toContain('* <nil>: Invalid value: "null": some validation rules were not checked');
    });

    it('watches with get -w', async () => {
      const w = k.start(['get', 'configmaps', '-w']);
      await new Promise((r) => setTimeout(r, 700));
      await k.run(['apply', '-f', '-'], `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"watched-cm"}}`);
      await eventually(() => w.output().includes('watched-'), 10_000);
      w.stop();
    });
  });
}

describe.runIf(hasKubectl('1.33'))('kubectl 1.33 node and workload commands', () => {
  const k = kubectlOnServer('1.33', { kubernetesVersion: 'v1.33.1', podGrace: 'immediate' }, (kubectl) =>
    kubectl.run(['apply', '-f', '-'], node),
  );

  it('labels, annotates, taints and patches with the three patch types', async () => {
    expect((await k.run(['label', 'node', 'n1', 'tier=web'])).stdout).toContain('labeled');
    expect((await k.run(['annotate', 'node', 'n1', 'note=x'])).stdout).toContain('annotated');
    await k.run(['taint', 'node', 'n1', 'a=b:NoSchedule']);
    await k.run(['taint', 'node', 'n1', 'c=d:NoExecute']);
    await k.run(['taint', 'node', 'n1', 'a-']);
    expect((await k.run(['get', 'node', 'n1', '-o', 'jsonpath={.spec.taints[*].key}'])).stdout).toBe('c');
    await k.run(['patch', 'node', 'n1', '-p', '{"metadata":{"labels":{"s":"1"}}}']);
    await k.run(['patch', 'node', 'n1', '--type=merge', '-p', '{"metadata":{"labels":{"m":"2"}}}']);
    await k.run(['patch', 'node', 'n1', '--type=json', '-p', '[{"op":"add","path":"/metadata/labels/j","value":"3"}]']);
    const labels = await k.run(['get', 'node', 'n1', '--show-labels']);
    expect(labels.stdout).toMatch(/j=3.*m=2.*s=1.*tier=web/);
  });

  it('scales a static NodePool through its scale subresource', async () => {
    const pool = nodePool(1).replace('  weight: 1\n', '  replicas: 2\n');
    expect((await k.run(['apply', '-f', '-'], pool)).stdout).toContain('nodepool.karpenter.sh/general created');
    expect((await k.run(['scale', 'nodepool', 'general', '--replicas=5'])).stdout).toContain('scaled');
    expect((await k.run(['get', 'nodepool', 'general', '-o', 'jsonpath={.spec.replicas}'])).stdout).toBe('5');
    await k.run(['delete', 'nodepool', 'general']);
  });

  it('scales, waits for Ready, describes, drains and deletes', async () => {
    await k.run(['apply', '-f', '-'], deployment(1));
    expect((await k.run(['scale', 'deploy', 'web', '--replicas=4'])).stdout).toContain('scaled');
    expect((await k.run(['get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas}'])).stdout).toBe('4');
    expect((await k.run(['wait', '--for=condition=Ready', 'node/n1', '--timeout=5s'])).stdout).toContain(
      'condition met',
    );
    await k.run(['run', 'worker', '--image=nginx', '--overrides={"spec":{"nodeName":"n1"}}']);
    const described = await k.run(['describe', 'node', 'n1']);
    expect(described.stdout).toContain('Non-terminated Pods:          (1 in total)');
    const drained = await k.run(['drain', 'n1', '--ignore-daemonsets', '--force', '--timeout=10s']);
    expect(drained.stdout).toContain('node/n1 drained');
    expect((await k.run(['get', 'pods'])).stderr).toContain('No resources found');
    expect((await k.run(['get', 'node', 'n1'])).stdout).toContain('Ready,SchedulingDisabled');
    expect((await k.run(['delete', 'deploy', 'web'])).stdout).toContain('deleted');
  });
});
