/**
 * Resolves amiSelectorTerms into AMIs: aliases (`al2023@latest`, `bottlerocket@v1.38.0`) through the SSM
 * parameters EKS publishes, ids, names/owners/tags through DescribeImages, and `ssmParameter` terms.
 * Keeps the newest image per architecture, as Karpenter does.
 */
import type { AMISelectorTerm, AMIStatus } from '../../../api/index.js';
import type { TtlCache } from '../cache/ttl-cache.js';
import type { AwsPort, Ec2Architecture, ImageInfo, ImageQuery } from '../ports/index.js';
import { tagFilters } from './selectors.js';

/** Caches the AMI resolution reads through. */
export interface AmiCaches {
  ssm: TtlCache<Record<string, string>>;
  images: TtlCache<ImageInfo[]>;
}

const arches: readonly Ec2Architecture[] = ['x86_64', 'arm64'];

/** The SSM parameter that names the image of an alias for one architecture (undefined when none exists). */
export function aliasParameter(alias: string, k8s: string, arch: Ec2Architecture): string | undefined {
  const [family = '', version = 'latest'] = alias.toLowerCase().split('@');
  const latest = version === 'latest';
  switch (family) {
    case 'al2023': {
      const leaf = latest ? 'recommended' : `amazon-eks-node-al2023-${arch}-standard-${k8s}-${version}`;
      return `/aws/service/eks/optimized-ami/${k8s}/amazon-linux-2023/${arch}/standard/${leaf}/image_id`;
    }
    case 'al2': {
      const leaf = latest ? 'recommended' : `amazon-eks-${arch === 'arm64' ? 'arm64-' : ''}node-${k8s}-${version}`;
      return `/aws/service/eks/optimized-ami/${k8s}/amazon-linux-2${arch === 'arm64' ? '-arm64' : ''}/${leaf}/image_id`;
    }
    case 'bottlerocket':
      return `/aws/service/bottlerocket/aws-k8s-${k8s}/${arch}/${latest ? 'latest' : version.replace(/^v/, '')}/image_id`;
    case 'windows2019':
    case 'windows2022':
    case 'windows2025':
      return arch === 'arm64'
        ? undefined
        : `/aws/service/ami-windows-latest/Windows_Server-${family.slice(7)}-English-Core-EKS_Optimized-${k8s}/image_id`;
    default:
      return undefined;
  }
}

async function describe(port: AwsPort, caches: AmiCaches, query: ImageQuery): Promise<ImageInfo[]> {
  return caches.images.getOrLoad(JSON.stringify(query), () => port.describeImages(query));
}

async function idsFromParameters(port: AwsPort, caches: AmiCaches, names: string[]): Promise<string[]> {
  if (names.length === 0) return [];
  const values = await caches.ssm.getOrLoad(JSON.stringify(names), () => port.getParameters(names));
  return Object.values(values);
}

async function resolveTerm(port: AwsPort, caches: AmiCaches, term: AMISelectorTerm, k8s: string): Promise<ImageInfo[]> {
  if (term.alias !== undefined) {
    const alias = term.alias;
    const params = arches.flatMap((a) => aliasParameter(alias, k8s, a) ?? []);
    const ids = await idsFromParameters(port, caches, params);
    return ids.length === 0 ? [] : describe(port, caches, { imageIds: ids });
  }
  if (term.ssmParameter !== undefined) {
    const ids = await idsFromParameters(port, caches, [term.ssmParameter]);
    return ids.length === 0 ? [] : describe(port, caches, { imageIds: ids });
  }
  if (term.id !== undefined) return describe(port, caches, { imageIds: [term.id] });
  const owners = term.owner !== undefined ? [term.owner] : term.name !== undefined ? ['self', 'amazon'] : undefined;
  const filters = [
    ...(term.name !== undefined ? [{ name: 'name', values: [term.name] }] : []),
    ...tagFilters(term.tags),
  ];
  return describe(port, caches, { ...(owners ? { owners } : {}), filters });
}

const kubeArch = (a: Ec2Architecture): string => (a === 'arm64' ? 'arm64' : 'amd64');

/** The newest available image per architecture over every term, newest first, as EC2NodeClass status AMIs. */
export async function resolveAmis(input: {
  port: AwsPort;
  caches: AmiCaches;
  terms: AMISelectorTerm[];
  kubernetesVersion: string;
  now: number;
}): Promise<AMIStatus[]> {
  const newest = new Map<Ec2Architecture, ImageInfo>();
  for (const term of input.terms) {
    for (const image of await resolveTerm(input.port, input.caches, term, input.kubernetesVersion)) {
      if (image.state !== 'available') continue;
      const seen = newest.get(image.architecture);
      if (
        !seen ||
        image.creationDate > seen.creationDate ||
        (image.creationDate === seen.creationDate && image.imageId > seen.imageId)
      ) {
        newest.set(image.architecture, image);
      }
    }
  }
  return [...newest.values()]
    .sort((a, b) => b.creationDate.localeCompare(a.creationDate) || a.imageId.localeCompare(b.imageId))
    .map((i) => ({
      id: i.imageId,
      name: i.name,
      requirements: [{ key: 'kubernetes.io/arch', operator: 'In' as const, values: [kubeArch(i.architecture)] }],
      ...(i.deprecationTime !== undefined && Date.parse(i.deprecationTime) < input.now ? { deprecated: true } : {}),
    }));
}
