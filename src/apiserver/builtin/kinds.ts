/** The built-in kinds Tenon and its simulated world use, as kube-apiserver serves them. */
import { allVerbs, type ResourceInfo, type SubresourceInfo } from '../resources/resource-types.js';

interface BuiltinSpec {
  gv: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  subresources?: Array<{ name: string; kind?: string; gv?: string; verbs: string[] }>;
  verbs?: string[];
  status?: boolean;
}

const statusSub = { name: 'status', verbs: ['get', 'patch', 'update'] };
const scaleSub = { name: 'scale', kind: 'Scale', gv: 'autoscaling/v1', verbs: ['get', 'patch', 'update'] };

const specs: BuiltinSpec[] = [
  {
    gv: 'v1',
    kind: 'Namespace',
    plural: 'namespaces',
    namespaced: false,
    shortNames: ['ns'],
    subresources: [statusSub, { name: 'finalize', verbs: ['update'] }],
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  },
  { gv: 'v1', kind: 'Node', plural: 'nodes', namespaced: false, shortNames: ['no'], subresources: [statusSub] },
  {
    gv: 'v1',
    kind: 'Pod',
    plural: 'pods',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    subresources: [
      statusSub,
      { name: 'binding', kind: 'Binding', verbs: ['create'] },
      { name: 'eviction', kind: 'Eviction', gv: 'policy/v1', verbs: ['create'] },
      { name: 'log', kind: 'Pod', verbs: ['get'] },
    ],
  },
  { gv: 'v1', kind: 'Event', plural: 'events', namespaced: true, shortNames: ['ev'], status: false },
  { gv: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true, shortNames: ['cm'], status: false },
  { gv: 'v1', kind: 'Secret', plural: 'secrets', namespaced: true, status: false },
  { gv: 'v1', kind: 'ServiceAccount', plural: 'serviceaccounts', namespaced: true, shortNames: ['sa'], status: false },
  { gv: 'v1', kind: 'PodTemplate', plural: 'podtemplates', namespaced: true, status: false },
  {
    gv: 'v1',
    kind: 'Service',
    plural: 'services',
    namespaced: true,
    shortNames: ['svc'],
    categories: ['all'],
    subresources: [statusSub],
  },
  {
    gv: 'v1',
    kind: 'PersistentVolume',
    plural: 'persistentvolumes',
    namespaced: false,
    shortNames: ['pv'],
    subresources: [statusSub],
  },
  {
    gv: 'v1',
    kind: 'PersistentVolumeClaim',
    plural: 'persistentvolumeclaims',
    namespaced: true,
    shortNames: ['pvc'],
    subresources: [statusSub],
  },
  {
    gv: 'apps/v1',
    kind: 'Deployment',
    plural: 'deployments',
    namespaced: true,
    shortNames: ['deploy'],
    categories: ['all'],
    subresources: [statusSub, scaleSub],
  },
  {
    gv: 'apps/v1',
    kind: 'ReplicaSet',
    plural: 'replicasets',
    namespaced: true,
    shortNames: ['rs'],
    categories: ['all'],
    subresources: [statusSub, scaleSub],
  },
  {
    gv: 'apps/v1',
    kind: 'DaemonSet',
    plural: 'daemonsets',
    namespaced: true,
    shortNames: ['ds'],
    categories: ['all'],
    subresources: [statusSub],
  },
  {
    gv: 'apps/v1',
    kind: 'StatefulSet',
    plural: 'statefulsets',
    namespaced: true,
    shortNames: ['sts'],
    categories: ['all'],
    subresources: [statusSub, scaleSub],
  },
  { gv: 'batch/v1', kind: 'Job', plural: 'jobs', namespaced: true, categories: ['all'], subresources: [statusSub] },
  { gv: 'coordination.k8s.io/v1', kind: 'Lease', plural: 'leases', namespaced: true, status: false },
  { gv: 'events.k8s.io/v1', kind: 'Event', plural: 'events', namespaced: true, shortNames: ['ev'], status: false },
  {
    gv: 'policy/v1',
    kind: 'PodDisruptionBudget',
    plural: 'poddisruptionbudgets',
    namespaced: true,
    shortNames: ['pdb'],
    subresources: [statusSub],
  },
  {
    gv: 'scheduling.k8s.io/v1',
    kind: 'PriorityClass',
    plural: 'priorityclasses',
    namespaced: false,
    shortNames: ['pc'],
    status: false,
  },
  {
    gv: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    plural: 'storageclasses',
    namespaced: false,
    shortNames: ['sc'],
    status: false,
  },
  { gv: 'storage.k8s.io/v1', kind: 'CSINode', plural: 'csinodes', namespaced: false, status: false },
  {
    gv: 'storage.k8s.io/v1',
    kind: 'VolumeAttachment',
    plural: 'volumeattachments',
    namespaced: false,
    subresources: [statusSub],
  },
  {
    gv: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    plural: 'customresourcedefinitions',
    namespaced: false,
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    subresources: [statusSub],
  },
];

function toInfo(s: BuiltinSpec): ResourceInfo {
  const [group, version] = s.gv.includes('/') ? (s.gv.split('/') as [string, string]) : ['', s.gv];
  const subresources: SubresourceInfo[] = (s.subresources ?? []).map((sub) => {
    const [sg, sv] = sub.gv ? (sub.gv.split('/') as [string, string]) : [group, version];
    return { name: sub.name, group: sg, version: sv, kind: sub.kind ?? s.kind, verbs: sub.verbs };
  });
  return {
    group,
    version,
    kind: s.kind,
    listKind: `${s.kind}List`,
    plural: s.plural,
    singular: s.kind.toLowerCase(),
    namespaced: s.namespaced,
    shortNames: s.shortNames ?? [],
    categories: s.categories ?? [],
    verbs: s.verbs ?? allVerbs,
    subresources,
    hasStatus: s.status ?? true,
    custom: false,
  };
}

/** Every built-in resource, in discovery order. */
export function builtinResources(): ResourceInfo[] {
  return specs.map(toInfo);
}
