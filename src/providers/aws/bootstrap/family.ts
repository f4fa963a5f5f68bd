import type { AmiFamily, EC2NodeClassLike } from './types.js';

const families: readonly AmiFamily[] = [
  'AL2',
  'AL2023',
  'Bottlerocket',
  'Windows2019',
  'Windows2022',
  'Windows2025',
  'Custom',
];
const aliasFamilies: Readonly<Record<string, AmiFamily>> = {
  al2: 'AL2',
  al2023: 'AL2023',
  bottlerocket: 'Bottlerocket',
  windows2019: 'Windows2019',
  windows2022: 'Windows2022',
  windows2025: 'Windows2025',
};

/** The AMI family of an EC2NodeClass: `spec.amiFamily`, else from an alias term (`al2023@latest`), else undefined. */
export function familyOf(nodeClass: EC2NodeClassLike): AmiFamily | undefined {
  const declared = nodeClass.spec.amiFamily;
  if (declared && families.includes(declared as AmiFamily)) return declared as AmiFamily;
  for (const term of nodeClass.spec.amiSelectorTerms ?? []) {
    const name = term.alias?.split('@')[0]?.toLowerCase();
    const family = name ? aliasFamilies[name] : undefined;
    if (family) return family;
  }
  return undefined;
}
