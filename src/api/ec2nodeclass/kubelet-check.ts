import { toOpenApi } from '../crds/to-openapi.js';
import type { JsonSchemaProps } from '../schema/json-schema-props.js';
import { validateAndDefault, type FieldError } from '../validation/index.js';
import { KubeletConfigurationSchema, type KubeletConfiguration } from './kubelet.js';

/** How `spec.kubelet` reads: the settings Tenon uses when they pass Karpenter's rules, else the errors. */
export type KubeletCheck =
  { ok: true; kubelet: KubeletConfiguration | undefined } | { ok: false; errors: FieldError[] };

// Wrapped under spec.kubelet so each error names the field as a user wrote it. A constant, never written.
const wrapped: JsonSchemaProps = {
  type: 'object',
  properties: { spec: { type: 'object', properties: { kubelet: toOpenApi(KubeletConfigurationSchema) } } },
};

/**
 * Checks the kubelet fields Tenon reads against Karpenter's rules (signals, reserved keys, bounds); other
 * KubeletConfiguration fields pass through unchecked, as upstream. The CRD accepts anything here.
 */
export function checkKubelet(kubelet: unknown): KubeletCheck {
  if (kubelet === undefined || kubelet === null) return { ok: true, kubelet: undefined };
  const { errors } = validateAndDefault({ schema: wrapped, object: { spec: { kubelet } } });
  return errors.length === 0 ? { ok: true, kubelet: kubelet as KubeletConfiguration } : { ok: false, errors };
}
