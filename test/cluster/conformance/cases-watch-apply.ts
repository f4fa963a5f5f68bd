/** Differential cases for watch event sequences and server-side apply between field managers. */
import type { Case } from './cases.js';

const configMaps = '/api/v1/namespaces/{ns}/configmaps';

function apply(manager: string, data: Record<string, string>, force = false): Case['steps'][number] {
  return {
    method: 'PATCH',
    path: `${configMaps}/shared?fieldManager=${manager}${force ? '&force=true' : ''}`,
    contentType: 'application/apply-patch+yaml',
    body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'shared' }, data },
  };
}

/** The watch and apply cases, in order. */
export const watchAndApplyCases: Case[] = [
  {
    name: 'watch from a resourceVersion replays MODIFIED then DELETED',
    steps: [
      {
        method: 'POST',
        path: configMaps,
        setup: true,
        capture: { rv: 'metadata.resourceVersion' },
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'w', labels: { a: '1' } } },
      },
      {
        method: 'PATCH',
        path: `${configMaps}/w`,
        contentType: 'application/merge-patch+json',
        setup: true,
        body: { data: { x: '1' } },
      },
      { method: 'DELETE', path: `${configMaps}/w`, setup: true },
      {
        method: 'GET',
        path: `${configMaps}?watch=true&resourceVersion={rv}&timeoutSeconds=1&fieldSelector=metadata.name%3Dw`,
        events: true,
      },
    ],
  },
  {
    name: 'watch with a label selector: an object that stops matching is DELETED',
    steps: [
      {
        method: 'POST',
        path: configMaps,
        setup: true,
        capture: { rv: 'metadata.resourceVersion' },
        body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'sel', labels: { a: '1' } } },
      },
      {
        method: 'PATCH',
        path: `${configMaps}/sel`,
        contentType: 'application/merge-patch+json',
        setup: true,
        body: { metadata: { labels: { a: '2' } } },
      },
      {
        method: 'GET',
        path: `${configMaps}?watch=true&resourceVersion={rv}&timeoutSeconds=1&labelSelector=a%3D1`,
        events: true,
      },
    ],
  },
  {
    name: 'watch from a resourceVersion older than the kept window',
    steps: [{ method: 'GET', path: `${configMaps}?watch=true&resourceVersion=1&timeoutSeconds=1`, events: true }],
  },
  {
    name: 'server-side apply: a second manager conflicts, force takes the field over',
    steps: [
      { ...apply('first', { x: '1', y: '1' }), setup: true },
      apply('second', { x: '2' }),
      apply('second', { x: '2' }, true),
      apply('first', { y: '1' }),
    ],
  },
];
