/**
 * The on-demand price list shipped with the release (data/aws-instance-types.json, us-east-1 Linux prices):
 * what the provider prices with when it may not call the Pricing API (settings.isolatedVPC). Karpenter ships a
 * generated table per region and falls back to us-east-1's for regions it lacks; Tenon ships us-east-1's only.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The shipped list's file, from the sources (src/providers/aws/pricing) or the build (dist/src/...). */
const candidates = ['../../../../data/aws-instance-types.json', '../../../../../data/aws-instance-types.json'];

interface PriceEntry {
  name: string;
  onDemandPriceUSD: number | null;
}

/** Hourly on-demand prices by instance type from the shipped list; types without a published price are left out. */
export function staticOnDemandPrices(text: string): ReadonlyMap<string, number> {
  const parsed = JSON.parse(text) as { instanceTypes?: PriceEntry[] };
  const out = new Map<string, number>();
  for (const e of parsed.instanceTypes ?? [])
    if (typeof e.onDemandPriceUSD === 'number' && e.onDemandPriceUSD > 0) out.set(e.name, e.onDemandPriceUSD);
  return out;
}

/** Reads the shipped list; throws naming the file when the package was installed without its data folder. */
export function loadStaticOnDemandPrices(): ReadonlyMap<string, number> {
  for (const rel of candidates) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(path)) return staticOnDemandPrices(readFileSync(path, 'utf8'));
  }
  throw new Error('data/aws-instance-types.json (the static price list isolatedVPC prices with) is not in the package');
}
