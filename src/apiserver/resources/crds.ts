/** CustomResourceDefinitions: served resources derived from CRD objects, established as they are written. */
import type { CustomResourceDefinition, CustomResourceDefinitionVersion } from '../../api/index.js';
import { commitWrite } from '../storage/commit.js';
import type { ResourceInfo } from './resource-types.js';
import type { ServerState } from '../state.js';
import { parseEntry, type Entry } from '../storage/store.js';
import { isJson, timestamp, type KObject } from '../types.js';

/** The served resources (one per served version) of a CRD. */
export function resourcesOfCrd(crd: CustomResourceDefinition): ResourceInfo[] {
  const n = crd.spec.names;
  return crd.spec.versions
    .filter((v) => v.served)
    .map((v) => ({
      group: crd.spec.group,
      version: v.name,
      kind: n.kind,
      listKind: n.listKind ?? `${n.kind}List`,
      plural: n.plural,
      singular: n.singular ?? n.kind.toLowerCase(),
      namespaced: crd.spec.scope === 'Namespaced',
      shortNames: n.shortNames ?? [],
      categories: n.categories ?? [],
      verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
      subresources: [
        ...(v.subresources?.status
          ? [
              {
                name: 'status',
                group: crd.spec.group,
                version: v.name,
                kind: n.kind,
                verbs: ['get', 'patch', 'update'],
              },
            ]
          : []),
        ...(scaleOfVersion(v)
          ? [{ name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] }]
          : []),
      ],
      hasStatus: v.subresources?.status !== undefined,
      custom: true,
      schema: v.schema?.openAPIV3Schema,
      printerColumns: v.additionalPrinterColumns,
      ...(scaleOfVersion(v) ? { scale: scaleOfVersion(v) } : {}),
    }));
}

// The scale subresource of a CRD version, when it declares one with both replica paths.
function scaleOfVersion(v: CustomResourceDefinitionVersion): ResourceInfo['scale'] {
  const s = v.subresources?.scale;
  if (!s || typeof s.specReplicasPath !== 'string' || typeof s.statusReplicasPath !== 'string') return undefined;
  const selector = typeof s.labelSelectorPath === 'string' ? { labelSelectorPath: s.labelSelectorPath } : {};
  return { specReplicasPath: s.specReplicasPath, statusReplicasPath: s.statusReplicasPath, ...selector };
}

function establishedStatus(crd: KObject, now: number): Record<string, unknown> {
  const t = timestamp(now);
  const spec = isJson(crd.spec) ? crd.spec : {};
  const names = isJson(spec.names) ? spec.names : {};
  const versions = Array.isArray(spec.versions)
    ? spec.versions
        .filter(isJson)
        .filter((v) => v.storage)
        .map((v) => v.name)
    : [];
  return {
    conditions: [
      {
        type: 'NamesAccepted',
        status: 'True',
        lastTransitionTime: t,
        reason: 'NoConflicts',
        message: 'no conflicts found',
      },
      {
        type: 'Established',
        status: 'True',
        lastTransitionTime: t,
        reason: 'InitialNamesAccepted',
        message: 'the initial names have been accepted',
      },
    ],
    acceptedNames: names,
    storedVersions: versions,
  };
}

/** Keeps the registry in step with stored CRDs: serves new ones, updates changed ones, removes deleted ones. */
export function watchCrds(state: ServerState): void {
  state.onCommit.push((info, type, entry: Entry) => {
    if (info.kind !== 'CustomResourceDefinition' || info.custom) return;
    const crd = parseEntry(entry);
    const def = crd as unknown as CustomResourceDefinition;
    for (const r of state.registry
      .all()
      .filter((x) => x.custom && x.group === def.spec.group && x.plural === def.spec.names.plural)) {
      state.registry.remove(r.group, r.version, r.plural);
      if (type === 'DELETED') state.store.dropTable(r);
    }
    if (type === 'DELETED') return;
    for (const r of resourcesOfCrd(def)) state.registry.add(r);
    const established = Array.isArray((crd.status as { conditions?: unknown } | undefined)?.conditions);
    if (!established) {
      state.defer(() => {
        const cur = state.store.table(info).objects.get(entry.key);
        if (!cur) return;
        const o = parseEntry(cur);
        o.status = establishedStatus(o, state.clock.now());
        commitWrite(state, info, o);
      });
    }
  });
}
