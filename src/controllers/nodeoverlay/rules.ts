import type { OverlayRule } from '../../cloudprovider/index.js';
import type { StoredNodeOverlay } from '../../state/informers.js';

/** The overlays in force as rules: every NodeOverlay not being deleted. */
export function overlayRules(overlays: readonly StoredNodeOverlay[]): OverlayRule[] {
  return overlays
    .filter((o) => !o.metadata.deletionTimestamp)
    .map((o) => ({
      name: o.metadata.name ?? '',
      ...(o.spec.weight !== undefined ? { weight: o.spec.weight } : {}),
      requirements: o.spec.requirements,
      ...(o.spec.price !== undefined ? { price: o.spec.price } : {}),
      ...(o.spec.priceAdjustment !== undefined ? { priceAdjustment: o.spec.priceAdjustment } : {}),
      ...(o.spec.capacity !== undefined ? { capacity: o.spec.capacity } : {}),
    }));
}
