/** Built-in kinds' OpenAPI schemas: kubectl explain walks them and strict field validation rejects unknown fields. */
import { describe, expect, it } from 'vitest';
import { hasKubectl, kubectlOnServer } from './kubectl-helpers.js';

const misspelt = `apiVersion: apps/v1
kind: Deployment
metadata: {name: typo}
spec:
  replica: 2
  selector: {matchLabels: {app: typo}}
  template:
    metadata: {labels: {app: typo}}
    spec:
      containers: [{name: app, image: nginx, imagePullPolice: Always}]
`;

for (const version of ['1.27', '1.33']) {
  describe.runIf(hasKubectl(version))(`kubectl ${version} and built-in schemas`, () => {
    const k = kubectlOnServer(version, { kubernetesVersion: `v${version}.1` });

    it('rejects unknown fields of a built-in kind with the strict decoding message, storing nothing', async () => {
      const r = await k.run(['apply', '-f', '-'], misspelt);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain(
        'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica", unknown field "spec.template.spec.containers[0].imagePullPolice"',
      );
      expect((await k.run(['get', 'deployment', 'typo'])).stderr).toContain('not found');
    });
  });
}

// Each explain target with a phrase its description must contain: kubectl prints `<no description>` otherwise.
const explained: Array<[string, RegExp]> = [
  ['deployment.spec', /desired state of a Deployment/],
  ['pod.spec.containers', /containers of the pod/],
  ['replicaset.spec.replicas', /How many pods are wanted/],
  ['daemonset.spec.updateStrategy', /RollingUpdate/],
  ['statefulset.spec.serviceName', /headless Service/],
  ['node.spec.taints', /Taints that repel pods/],
  ['node.status.allocatable', /available to pods/],
  ['service.spec.type', /ClusterIP/],
  ['configmap.data', /UTF-8 string values/],
  ['pdb.spec.minAvailable', /at least this many/],
  ['pvc.spec.storageClassName', /StorageClass to provision from/],
  ['pv.spec.persistentVolumeReclaimPolicy', /Retain, Delete or Recycle/],
  ['storageclass.volumeBindingMode', /WaitForFirstConsumer/],
  ['namespace', /a scope for names/],
  ['nodepool.spec', /Desired behaviour of the NodePool/],
  ['nodepool.spec.disruption', /When and how nodes of this NodePool may be disrupted/],
  ['nodepool.spec.disruption.consolidationPolicy', /WhenEmptyOrUnderutilized/],
  ['nodeclaim.spec.nodeClassRef', /provider-specific node class/],
  ['ec2nodeclass.spec.amiSelectorTerms', /selecting the AMIs/],
];

for (const version of ['1.27', '1.32', '1.33']) {
  describe.runIf(hasKubectl(version))(`kubectl ${version} explain prints descriptions`, () => {
    const k = kubectlOnServer(version, { kubernetesVersion: `v${version}.1` });

    it("describes built-in kinds and Tenon's CRDs, their specs and common fields", async () => {
      for (const [target, phrase] of explained) {
        const r = await k.run(['explain', target]);
        expect(r.stderr, target).toBe('');
        const description = r.stdout.split('DESCRIPTION:')[1]?.split('FIELDS:')[0] ?? '';
        expect(description.replace(/\s+/g, ' '), target).toMatch(phrase);
      }
      const fields = await k.run(['explain', 'nodepool.spec.disruption']);
      expect(fields.stdout).not.toContain('<no description>');
    });
  });
}

describe.runIf(hasKubectl('1.33'))('kubectl 1.33 explain on built-in kinds', () => {
  const k = kubectlOnServer('1.33');

  it('explains deployment.spec and pod.spec.containers with their fields and types', async () => {
    const spec = await k.run(['explain', 'deployment.spec']);
    expect(spec.stderr).toBe('');
    expect(spec.stdout).toContain('FIELD: spec <DeploymentSpec>');
    expect(spec.stdout).toMatch(/replicas\s+<integer>/);
    expect(spec.stdout).toMatch(/template\s+<PodTemplateSpec>/);
    const containers = await k.run(['explain', 'pod.spec.containers']);
    expect(containers.stdout).toMatch(/image\s+<string>/);
    expect(containers.stdout).toMatch(/ports\s+<\[\]ContainerPort>/);
  });
});
