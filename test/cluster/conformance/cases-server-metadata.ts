/** Differential cases for the metadata only the server sets: what a client's write does to it. */
import type { Case } from './cases.js';

const configMaps = '/api/v1/namespaces/{ns}/configmaps';

/** The server-owned metadata cases, in order. */
export const serverMetadataCases: Case[] = [
  {
    // Attached scenario runs rewrite these times on the way in and out (src/sim/clock/sim-time-transport.ts); a
    // write that carries other values must not move them.
    name: 'a replace cannot move creationTimestamp or deletionTimestamp',
    steps: [
      {
        method: 'POST',
        path: configMaps,
        setup: true,
        capture: { created: 'metadata.creationTimestamp' },
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'stamps', finalizers: ['example.com/hold'] } },
      },
      {
        method: 'DELETE',
        path: `${configMaps}/stamps`,
        setup: true,
        capture: { deleted: 'metadata.deletionTimestamp' },
      },
      {
        method: 'PUT',
        path: `${configMaps}/stamps`,
        body: {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: {
            name: 'stamps',
            finalizers: ['example.com/hold'],
            creationTimestamp: '2001-01-01T00:00:00Z',
            deletionTimestamp: '2001-01-01T00:00:00Z',
          },
          data: { x: '1' },
        },
        sameAs: { 'metadata.creationTimestamp': 'created', 'metadata.deletionTimestamp': 'deleted' },
      },
      {
        method: 'GET',
        path: `${configMaps}/stamps`,
        sameAs: { 'metadata.creationTimestamp': 'created', 'metadata.deletionTimestamp': 'deleted' },
      },
      {
        method: 'PATCH',
        path: `${configMaps}/stamps`,
        contentType: 'application/merge-patch+json',
        setup: true,
        body: { metadata: { finalizers: null } },
      },
    ],
  },
];
