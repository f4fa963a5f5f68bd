/**
 * kubectl's move from client-side to server-side apply, as kube-apiserver eases it for the `kubectl` manager:
 * conflicts on fields that the last-applied-configuration annotation lists are forced (those fields were set
 * by earlier client-side applies of the same configuration), and the annotation is kept up to date by applies.
 */
import { fieldsOf, type ListRules } from './field-paths.js';
import { isJson, type Json, type KObject } from '../types.js';

const annotation = 'kubectl.kubernetes.io/last-applied-configuration';
const kubectlManager = 'kubectl';

function lastApplied(obj: KObject): Json | undefined {
  const text = obj.metadata.annotations?.[annotation];
  if (!text) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return isJson(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Fields whose conflicts the apply may override: those in the live object's last-applied configuration. */
export function conflictsForgiven(live: KObject, manager: string, rules: ListRules): Set<string> {
  const config = manager === kubectlManager ? lastApplied(live) : undefined;
  return config ? fieldsOf(config, { ...rules, withStatus: false }) : new Set();
}

/** After an apply by `kubectl` to an object carrying the annotation, the annotation records this configuration. */
export function refreshLastApplied(live: KObject, merged: KObject, config: KObject, manager: string): void {
  if (manager !== kubectlManager || !lastApplied(live)) return;
  const { [annotation]: _old, ...others } = config.metadata.annotations ?? {};
  const { resourceVersion: _rv, managedFields: _mf, ...meta } = config.metadata;
  const recorded = {
    ...config,
    metadata: { ...meta, ...(Object.keys(others).length > 0 ? { annotations: others } : {}) },
  };
  merged.metadata.annotations = { ...merged.metadata.annotations, [annotation]: JSON.stringify(recorded) };
}
