/** Server-side apply on custom resources honours the schema's list markers: map lists by key, sets by value, others atomic. */
import { describe, expect, it } from 'vitest';
import type { CustomResourceDefinition } from '../../src/api/index.js';
import { hasKubectl, type Kubectl, kubectlOnServer } from './kubectl-helpers.js';

const widgetCrd: CustomResourceDefinition = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    names: { kind: 'Widget', listKind: 'WidgetList', plural: 'widgets', singular: 'widget' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  ports: {
                    type: 'array',
                    'x-kubernetes-list-type': 'map',
                    'x-kubernetes-list-map-keys': ['name', 'protocol'],
                    items: {
                      type: 'object',
                      required: ['name', 'protocol'],
                      properties: { name: { type: 'string' }, protocol: { type: 'string' }, port: { type: 'integer' } },
                    },
                  },
                  zones: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string' } },
                  hosts: { type: 'array', items: { type: 'string' } },
                },
              },
            },
          },
        },
      },
    ],
  },
};

const widget = (spec: string): string => `apiVersion: example.com/v1
kind: Widget
metadata: {name: w}
spec:
${spec}`;

describe.runIf(hasKubectl('1.33'))('kubectl 1.33 apply --server-side on list-type markers of a CRD', () => {
  const k = kubectlOnServer('1.33', { crds: [widgetCrd] });

  const apply = (manager: string, spec: string, ...flags: string[]): ReturnType<Kubectl['run']> =>
    k.run(['apply', '--server-side', `--field-manager=${manager}`, ...flags, '-f', '-'], widget(spec));
  const get = async (path: string): Promise<string> =>
    (await k.run(['get', 'widget', 'w', '-o', `jsonpath=${path}`])).stdout;

  it('keeps each manager its own map-list items and set values, and replaces atomic lists', async () => {
    expect(
      (await apply('team-a', '  ports: [{name: http, protocol: TCP, port: 80}]\n  zones: [a]\n  hosts: [x]')).stderr,
    ).toBe('');
    expect((await apply('team-b', '  ports: [{name: dns, protocol: UDP, port: 53}]\n  zones: [b]')).stderr).toBe('');
    expect(await get('{.spec.ports[*].name}')).toBe('http dns');
    expect(await get('{.spec.zones[*]}')).toBe('a b');
    // The same name with another protocol is another item of a map keyed by both.
    expect(
      (
        await apply(
          'team-b',
          '  ports: [{name: dns, protocol: UDP, port: 53}, {name: dns, protocol: TCP, port: 53}]\n  zones: [b]',
        )
      ).stderr,
    ).toBe('');
    expect(await get('{.spec.ports[*].protocol}')).toBe('TCP UDP TCP');

    // A manager that stops applying an item removes only its own.
    expect((await apply('team-a', '  ports: []\n  zones: [a]\n  hosts: [x]')).stderr).toBe('');
    expect(await get('{.spec.ports[*].name}')).toBe('dns dns');
    const owned = JSON.parse((await k.run(['get', 'widget', 'w', '--show-managed-fields', '-o', 'json'])).stdout) as {
      metadata: { managedFields: Array<{ manager: string; fieldsV1: unknown }> };
    };
    const teamB = JSON.stringify(owned.metadata.managedFields.find((m) => m.manager === 'team-b')?.fieldsV1);
    expect(teamB).toContain('k:{\\"name\\":\\"dns\\",\\"protocol\\":\\"UDP\\"}');
    expect(teamB).toContain('v:\\"b\\"');
  });

  it('reports a conflict on a field of the same key, and on an atomic list, as kube-apiserver does', async () => {
    const port = await apply('team-c', '  ports: [{name: dns, protocol: UDP, port: 5353}]');
    expect(port.code).not.toBe(0);
    expect(port.stderr).toContain(
      'error: Apply failed with 1 conflict: conflict with "team-b": .spec.ports[name="dns",protocol="UDP"].port',
    );
    const hosts = await apply('team-c', '  hosts: [y]');
    expect(hosts.stderr).toContain('conflict with "team-a": .spec.hosts');
    expect(
      (await apply('team-c', '  ports: [{name: dns, protocol: UDP, port: 5353}]', '--force-conflicts')).stderr,
    ).toBe('');
    expect(await get('{.spec.ports[?(@.protocol=="UDP")].port}')).toBe('5353');
    expect(await get('{.spec.hosts[*]}')).toBe('x');
  });
});
