/** Built-in kinds' OpenAPI schemas: kubectl explain walks them and strict field validation rejects unknown fields. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../src/apiserver/index.js';
import { hasKubectl, kubectlFor, type Kubectl } from './kubectl-helpers.js';

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
    let server: ApiServer;
    let k: Kubectl;
    beforeAll(async () => {
      server = await startApiServer({ kubernetesVersion: `v${version}.1` });
      k = kubectlFor(server, version);
    });
    afterAll(async () => {
      k.dispose();
      await server.close();
    });

    it('rejects unknown fields of a built-in kind with the strict decoding message, storing nothing', async () => {
      const r = await k.run(['apply', '-f', '-'], misspelt);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toContain('Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica", unknown field "spec.template.spec.containers[0].imagePullPolice"');
      expect((await k.run(['get', 'deployment', 'typo'])).stderr).toContain('not found');
    });
  });
}

describe.runIf(hasKubectl('1.33'))('kubectl 1.33 explain on built-in kinds', () => {
  let server: ApiServer;
  let k: Kubectl;
  beforeAll(async () => {
    server = await startApiServer();
    k = kubectlFor(server, '1.33');
  });
  afterAll(async () => {
    k.dispose();
    await server.close();
  });

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
