/**
 * What kube-apiserver's admission adds to a Pod at create: the ServiceAccount (and, when the server is asked to,
 * its token volume mounted in every container), the DefaultTolerationSeconds tolerations for not-ready and unreachable nodes, and the QoS
 * class computed from the containers' resources.
 */
import { generatedName } from '../writes/metadata.js';
import { isJson, type Json, type KObject } from '../types.js';

/** Where the ServiceAccount token volume is mounted in each container. */
export const serviceAccountMountPath = '/var/run/secrets/kubernetes.io/serviceaccount';

/** How long a pod stays on a node that became not-ready or unreachable (DefaultTolerationSeconds). */
export const defaultTolerationSeconds = 300;

const noExecuteKeys = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'] as const;

function containers(spec: Json): Json[] {
  const out: Json[] = [];
  for (const list of ['initContainers', 'containers'])
    if (Array.isArray(spec[list])) for (const c of spec[list]) if (isJson(c)) out.push(c);
  return out;
}

function tokenVolumeNamed(name: string): Json {
  return {
    name,
    projected: {
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        {
          downwardAPI: {
            items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }],
          },
        },
      ],
      defaultMode: 420,
    },
  };
}

function admitServiceAccount(o: KObject, spec: Json, tokenVolume: boolean): void {
  if (o.metadata.annotations?.['kubernetes.io/config.mirror'] !== undefined) return;
  if (!spec.serviceAccountName) spec.serviceAccountName = spec.serviceAccount || 'default';
  spec.serviceAccount ??= spec.serviceAccountName;
  if (!tokenVolume || spec.automountServiceAccountToken === false) return;
  const all = containers(spec);
  const mounted = (c: Json): boolean =>
    Array.isArray(c.volumeMounts) && c.volumeMounts.some((m) => isJson(m) && m.mountPath === serviceAccountMountPath);
  if (all.every(mounted)) return;
  const name = generatedName('kube-api-access-');
  spec.volumes = [...(Array.isArray(spec.volumes) ? spec.volumes : []), tokenVolumeNamed(name)];
  for (const c of all)
    if (!mounted(c))
      c.volumeMounts = [
        ...(Array.isArray(c.volumeMounts) ? c.volumeMounts : []),
        { name, readOnly: true, mountPath: serviceAccountMountPath },
      ];
}

// True when a toleration already covers the NoExecute taint with this key (any value, any time).
function tolerates(t: unknown, key: string): boolean {
  if (!isJson(t)) return false;
  const keyMatches = t.key === key || ((t.key === undefined || t.key === '') && t.operator === 'Exists');
  return keyMatches && (t.effect === undefined || t.effect === '' || t.effect === 'NoExecute');
}

function admitDefaultTolerations(spec: Json): void {
  const existing = Array.isArray(spec.tolerations) ? spec.tolerations : [];
  const added = noExecuteKeys
    .filter((key) => !existing.some((t) => tolerates(t, key)))
    .map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: defaultTolerationSeconds }));
  if (added.length > 0) spec.tolerations = [...existing, ...added];
}

function nonZero(q: unknown): boolean {
  if (typeof q === 'number') return q !== 0;
  return typeof q === 'string' && /[1-9]/.test(q.replace(/[eE][-+]?\d+$/, '').replace(/[a-zA-Z]+$/, ''));
}

/** The QoS class of a pod spec: BestEffort without cpu/memory requests or limits, Guaranteed when they are equal. */
export function qosClass(spec: Json): 'BestEffort' | 'Burstable' | 'Guaranteed' {
  let any = false;
  let guaranteed = true;
  for (const c of containers(spec)) {
    const res = isJson(c.resources) ? c.resources : {};
    const requests = isJson(res.requests) ? res.requests : {};
    const limits = isJson(res.limits) ? res.limits : {};
    for (const name of ['cpu', 'memory']) {
      if (nonZero(requests[name]) || nonZero(limits[name])) any = true;
      if (!nonZero(limits[name]) || (requests[name] !== undefined && requests[name] !== limits[name]))
        guaranteed = false;
    }
  }
  if (!any) return 'BestEffort';
  return guaranteed ? 'Guaranteed' : 'Burstable';
}

/** Admits a Pod being created: ServiceAccount (and its token volume when asked), default tolerations, QoS class. */
export function admitPod(o: KObject, opts: { tokenVolume: boolean }): void {
  const spec = isJson(o.spec) ? o.spec : undefined;
  if (!spec) return;
  admitServiceAccount(o, spec, opts.tokenVolume);
  admitDefaultTolerations(spec);
  o.status = { ...(isJson(o.status) ? o.status : {}), qosClass: qosClass(spec) };
}
