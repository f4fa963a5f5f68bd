import { isLabelValue, isQualifiedName, type Parsed } from './taint-strings.js';

/** Parses `k=v,k2=v2` as the kubelet's `--node-labels` (a MapStringString) does. */
export function parseLabelList(text: string): Parsed<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const pair of text.split(',')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    if (eq < 0) return { ok: false, error: `malformed label "${pair}": expected key=value` };
    const key = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    const bad = labelError(key, value);
    if (bad) return { ok: false, error: bad };
    out[key] = value;
  }
  return { ok: true, value: out };
}

/** Why a label would be rejected, or undefined when it is valid. */
export function labelError(key: string, value: string): string | undefined {
  if (!isQualifiedName(key)) return `invalid label key "${key}"`;
  if (!isLabelValue(value)) return `invalid label value "${value}" for key "${key}"`;
  return undefined;
}

// The kubelet refuses to start when --node-labels names a kubernetes.io or k8s.io label outside this list
// (NodeRestriction's kubelet-settable labels).
const allowedKubeletLabels: ReadonlySet<string> = new Set([
  'kubernetes.io/hostname',
  'kubernetes.io/arch',
  'kubernetes.io/os',
  'beta.kubernetes.io/instance-type',
  'node.kubernetes.io/instance-type',
  'beta.kubernetes.io/os',
  'beta.kubernetes.io/arch',
  'failure-domain.beta.kubernetes.io/zone',
  'failure-domain.beta.kubernetes.io/region',
  'topology.kubernetes.io/zone',
  'topology.kubernetes.io/region',
]);
const allowedNamespaces = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

/** True when the kubelet may set this label on itself; false for kubernetes.io / k8s.io keys it refuses. */
export function kubeletMaySetLabel(key: string): boolean {
  const slash = key.indexOf('/');
  if (slash < 0) return true;
  const ns = key.slice(0, slash);
  const restricted =
    ns === 'kubernetes.io' || ns.endsWith('.kubernetes.io') || ns === 'k8s.io' || ns.endsWith('.k8s.io');
  if (!restricted) return true;
  if (allowedKubeletLabels.has(key)) return true;
  return allowedNamespaces.some((a) => ns === a || ns.endsWith(`.${a}`));
}

/** Formats labels as the sorted `k=v,k2=v2` the kubelet reads. */
export function formatLabels(labels: Record<string, string>): string {
  return Object.keys(labels)
    .sort()
    .map((k) => `${k}=${labels[k] ?? ''}`)
    .join(',');
}
