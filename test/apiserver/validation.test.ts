/**
 * What the embedded API server refuses, as kube-apiserver v1.33 refuses it (the differential suite under
 * test/cluster/conformance compares the same requests with the real server): metadata rules, container
 * resources, the decoder's type checks, fieldValidation.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../src/apiserver/index.js';
import { send, type Endpoint, type Req, type Res } from '../cluster/conformance/endpoint.js';

let server: ApiServer;
let ep: Endpoint;
beforeAll(async () => {
  server = await startApiServer({});
  ep = { name: 'embedded', url: server.url, caPem: server.caPem, token: server.token };
});
afterAll(async () => {
  await server.close();
});

const configMaps = '/api/v1/namespaces/default/configmaps';
const pods = '/api/v1/namespaces/default/pods';
const deployments = '/apis/apps/v1/namespaces/default/deployments';

const deployment = (spec: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    ...spec,
  },
});

const podWith = (name: string, resources: Record<string, unknown>): Record<string, unknown> => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name },
  spec: { containers: [{ name: 'c', image: 'busybox', resources }] },
});

interface Status {
  reason?: string;
  message?: string;
  details?: { causes?: Array<{ field?: string; reason?: string; message?: string }> };
}

async function post(path: string, body: unknown, extra: Partial<Req> = {}): Promise<Res & { status: number }> {
  return send(ep, { method: 'POST', path, body, ...extra });
}

function fieldsOf(r: Res): string[] {
  return ((r.body as Status).details?.causes ?? []).map((c) => c.field ?? '');
}

describe('metadata', () => {
  it('refuses invalid label keys and values with 422 on metadata.labels, and stores nothing', async () => {
    const r = await post(configMaps, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'labels', labels: { 'bad key!': 'x', 'Example.com/x': 'y', k: 'v'.repeat(64) } },
    });
    expect(r.status).toBe(422);
    expect((r.body as Status).reason).toBe('Invalid');
    expect(fieldsOf(r)).toEqual(['metadata.labels', 'metadata.labels', 'metadata.labels']);
    expect((r.body as Status).message).toContain('must be no more than 63 characters');
    expect((await send(ep, { method: 'GET', path: `${configMaps}/labels` })).status).toBe(404);
  });

  it('accepts prefixed keys, empty values and values of 63 characters', async () => {
    const r = await post(configMaps, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'good-labels', labels: { 'karpenter.sh/nodepool': 'default', empty: '', k: 'v'.repeat(63) } },
    });
    expect(r.status).toBe(201);
  });

  it('refuses annotations over 256 KiB in total as Too long', async () => {
    const r = await post(configMaps, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'big', annotations: { a: 'x'.repeat(200_000), b: 'x'.repeat(62_144) } },
    });
    expect(r.status).toBe(422);
    expect((r.body as Status).details?.causes).toEqual([
      {
        reason: 'FieldValueTooLong',
        message: 'Too long: may not be more than 262144 bytes',
        field: 'metadata.annotations',
      },
    ]);
    const fits = await post(configMaps, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'fits', annotations: { a: 'x'.repeat(200_000), b: 'x'.repeat(62_142) } },
    });
    expect(fits.status).toBe(201);
  });

  it('checks labels on updates and on custom resources too', async () => {
    await post(configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'upd' } });
    const put = await send(ep, {
      method: 'PUT',
      path: `${configMaps}/upd`,
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'upd', labels: { 'a b': 'c' } } },
    });
    expect(put.status).toBe(422);
    const np = await post('/apis/karpenter.sh/v1/nodepools', {
      apiVersion: 'karpenter.sh/v1',
      kind: 'NodePool',
      metadata: { name: 'labelled', labels: { '-x': 'y' } },
      spec: {
        template: {
          spec: { nodeClassRef: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'd' }, requirements: [] },
        },
      },
    });
    expect(np.status).toBe(422);
    expect(fieldsOf(np)).toEqual(['metadata.labels']);
  });
});

describe('container resources', () => {
  it('refuses a negative request in a Pod and in a Deployment template, naming the field', async () => {
    const p = await post(pods, podWith('neg', { requests: { cpu: '-1' } }));
    expect(p.status).toBe(422);
    expect(fieldsOf(p)).toEqual(['spec.containers[0].resources.requests[cpu]']);
    const d = await post(
      deployments,
      deployment({
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'c', image: 'nginx', resources: { limits: { memory: '-64Mi' } } }] },
        },
      }),
    );
    expect(d.status).toBe(422);
    expect(fieldsOf(d)).toEqual(['spec.template.spec.containers[0].resources.limits[memory]']);
  });

  it('refuses a request above its limit, comparing quantities exactly', async () => {
    const over = await post(pods, podWith('over', { requests: { memory: '1025Mi' }, limits: { memory: '1Gi' } }));
    expect(over.status).toBe(422);
    expect((over.body as Status).message).toContain('must be less than or equal to memory limit of 1Gi');
    const equal = await post(pods, podWith('equal', { requests: { cpu: '1000m', memory: '1Gi' }, limits: { cpu: 1 } }));
    expect(equal.status).toBe(201);
  });

  it('refuses a quantity that does not parse with 400, as the decoder does', async () => {
    const r = await post(pods, podWith('nan', { requests: { cpu: 'lots' } }));
    expect(r.status).toBe(400);
    expect((r.body as Status).message).toContain('quantities must match the regular expression');
  });
});

describe('decoding', () => {
  it('refuses an apiVersion or kind that is not the URL one, and takes an absent one from the URL', async () => {
    const version = await post(deployments, { ...deployment(), apiVersion: 'apps/v1beta1' });
    expect(version.status).toBe(400);
    expect((version.body as Status).message).toBe(
      'the API version in the data (apps/v1beta1) does not match the expected API version (apps/v1)',
    );
    const group = await post(deployments, { ...deployment(), apiVersion: 'batch/v1' });
    expect(group.status).toBe(400);
    const kind = await post(pods, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'wrong-kind' } });
    expect(kind.status).toBe(400);
    expect((kind.body as Status).reason).toBe('BadRequest');
    const bare = await post(configMaps, { metadata: { name: 'no-type' } });
    expect(bare.status).toBe(201);
  });

  it("refuses values of the wrong JSON type in built-in kinds with Go's decoder message", async () => {
    const replicas = await post(deployments, deployment({ replicas: 'three' }));
    expect(replicas.status).toBe(400);
    expect((replicas.body as Status).message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    );
    const data = await post(configMaps, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'n' },
      data: { a: 1 },
    });
    expect(data.status).toBe(400);
    const labels = await post(configMaps, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'l', labels: 'x' },
    });
    expect(labels.status).toBe(400);
  });

  it('accepts numbers as quantities and null anywhere', async () => {
    const r = await post(pods, {
      ...podWith('numeric', { requests: { cpu: 1, memory: 1073741824 } }),
      metadata: { name: 'numeric', labels: null },
    });
    expect(r.status).toBe(201);
  });
});

describe('fieldValidation', () => {
  it('refuses an unknown value with 422 on the options', async () => {
    const r = await post(`${configMaps}?fieldValidation=Sometimes`, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'fv' },
    });
    expect(r.status).toBe(422);
    expect(fieldsOf(r)).toEqual(['fieldValidation']);
    expect((r.body as Status).message).toBe(
      'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Sometimes": supported values: "", "Ignore", "Strict", "Warn"',
    );
  });

  it('refuses repeated keys under Strict (before unknown fields) and keeps the last one otherwise', async () => {
    const text =
      '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup","labels":{"a":"1","a":"2"}},"data":{"a":"1"},"data":{"b":"2"},"x":1}';
    const strict = await post(`${configMaps}?fieldValidation=Strict`, text);
    expect(strict.status).toBe(400);
    expect((strict.body as Status).message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: duplicate field "metadata.labels.a", duplicate field "data", unknown field "x"',
    );
    const warn = await post(`${configMaps}?fieldValidation=Warn`, text);
    expect(warn.status).toBe(201);
    expect((warn.body as { data: unknown }).data).toEqual({ b: '2' });
  });
});

describe('resourceVersion', () => {
  it('refuses a malformed one: 400 for a list, 500 without a reason for a watch, as kube-apiserver', async () => {
    const list = await send(ep, { method: 'GET', path: `${configMaps}?resourceVersion=abc` });
    expect(list.status).toBe(400);
    expect((list.body as Status).message).toBe(
      'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
    );
    const watch = await send(ep, { method: 'GET', path: `${configMaps}?watch=true&resourceVersion=abc` });
    expect(watch.status).toBe(500);
    expect(watch.body).not.toHaveProperty('reason');
  });

  it('answers a watch from before the server started with 410 Expired, and replays from a later one', async () => {
    const old = await send(ep, { method: 'GET', path: `${configMaps}?watch=true&resourceVersion=1&timeoutSeconds=1` });
    expect(old.status).toBe(200);
    const error = JSON.parse(old.text.split('\n')[0] ?? '{}') as { type: string; object: Status & { code: number } };
    expect(error.type).toBe('ERROR');
    expect(error.object).toMatchObject({ code: 410, reason: 'Expired' });
    const created = await post(configMaps, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'replayed' } });
    const rv = Number((created.body as { metadata: { resourceVersion: string } }).metadata.resourceVersion) - 1;
    const replay = await send(ep, {
      method: 'GET',
      path: `${configMaps}?watch=true&resourceVersion=${rv}&timeoutSeconds=1`,
    });
    expect(replay.text).toContain('"type":"ADDED"');
    expect(replay.text).toContain('"name":"replayed"');
  });
});
