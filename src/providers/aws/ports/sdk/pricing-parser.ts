/** Parses the Pricing API's GetProducts price list (one JSON document per product) into hourly prices. */

interface PriceDoc {
  product?: { attributes?: { instanceType?: string } };
  terms?: { OnDemand?: Record<string, { priceDimensions?: Record<string, { pricePerUnit?: { USD?: string } }> }> };
}

/** The instance type and hourly USD price of one price-list document; undefined when it has none. */
export function parsePriceDocument(doc: string): { instanceType: string; price: number } | undefined {
  const parsed = JSON.parse(doc) as PriceDoc;
  const instanceType = parsed.product?.attributes?.instanceType;
  if (instanceType === undefined) return undefined;
  for (const term of Object.values(parsed.terms?.OnDemand ?? {})) {
    for (const dim of Object.values(term.priceDimensions ?? {})) {
      const price = Number(dim.pricePerUnit?.USD);
      // Zero-priced dimensions exist for unused reservations; they are not the on-demand price.
      if (Number.isFinite(price) && price > 0) return { instanceType, price };
    }
  }
  return undefined;
}
