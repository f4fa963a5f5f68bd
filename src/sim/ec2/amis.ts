/**
 * The simulated account's public AMIs and the SSM parameters Karpenter's aliases resolve through:
 * per family (AL2, AL2023, Bottlerocket, Windows2022, Windows2025), architecture, Kubernetes version and release.
 */
import type { Ec2Architecture, ImageInfo } from '../../providers/aws/ports/index.js';
import type { SeededRandom } from './random.js';

/** The EKS AMI publishers' account (owner alias `amazon`). */
export const AmazonOwnerId = '602401143452';

/** An image plus the owner alias DescribeImages' `owners` can name. */
export interface SimImage extends ImageInfo {
  ownerAlias?: string;
}

type Family = 'al2' | 'al2023' | 'bottlerocket' | 'windows2022' | 'windows2025';
const arches: readonly Ec2Architecture[] = ['x86_64', 'arm64'];

function imageName(family: Family, arch: Ec2Architecture, k8s: string, release: string): string {
  switch (family) {
    case 'al2023':
      return `amazon-eks-node-al2023-${arch}-standard-${k8s}-${release}`;
    case 'al2':
      return arch === 'arm64' ? `amazon-eks-arm64-node-${k8s}-${release}` : `amazon-eks-node-${k8s}-${release}`;
    case 'bottlerocket':
      return `bottlerocket-aws-k8s-${k8s}-${arch}-${bottlerocketVersion(release)}`;
    case 'windows2022':
    case 'windows2025':
      return `Windows_Server-${family.slice(7)}-English-Core-EKS_Optimized-${k8s}-${release}`;
  }
}

/** Bottlerocket numbers its releases `1.N.0`; the sim takes N from the EKS release month (v20250401 → v1.4.0). */
export function bottlerocketVersion(release: string): string {
  return `v1.${Number(release.slice(5, 7))}.0`;
}

/** SSM parameter names of one image: the pinned one, and `recommended`/`latest` when it is the newest. */
export function ssmNames(
  family: Family,
  arch: Ec2Architecture,
  k8s: string,
  release: string,
): { pinned: string; latest: string } {
  switch (family) {
    case 'al2023': {
      const base = `/aws/service/eks/optimized-ami/${k8s}/amazon-linux-2023/${arch}/standard`;
      return {
        pinned: `${base}/amazon-eks-node-al2023-${arch}-standard-${k8s}-${release}/image_id`,
        latest: `${base}/recommended/image_id`,
      };
    }
    case 'al2': {
      const base = `/aws/service/eks/optimized-ami/${k8s}/${arch === 'arm64' ? 'amazon-linux-2-arm64' : 'amazon-linux-2'}`;
      return {
        pinned: `${base}/${imageName('al2', arch, k8s, release)}/image_id`,
        latest: `${base}/recommended/image_id`,
      };
    }
    case 'bottlerocket': {
      const base = `/aws/service/bottlerocket/aws-k8s-${k8s}/${arch}`;
      return { pinned: `${base}/${bottlerocketVersion(release).slice(1)}/image_id`, latest: `${base}/latest/image_id` };
    }
    case 'windows2022':
    case 'windows2025': {
      const name = `/aws/service/ami-windows-latest/Windows_Server-${family.slice(7)}-English-Core-EKS_Optimized-${k8s}/image_id`;
      return { pinned: name, latest: name };
    }
  }
}

/** What `publishRelease` adds: images and the parameters pointing at them. */
export interface ReleaseArtifacts {
  images: SimImage[];
  parameters: Record<string, string>;
}

/** Images and SSM parameters of one release of every family, architecture and version. */
export function publishRelease(input: {
  release: string;
  versions: readonly string[];
  random: SeededRandom;
  createdAt: string;
}): ReleaseArtifacts {
  const images: SimImage[] = [];
  const parameters: Record<string, string> = {};
  for (const k8s of input.versions) {
    for (const family of ['al2', 'al2023', 'bottlerocket', 'windows2022', 'windows2025'] as const) {
      for (const arch of arches) {
        if (family.startsWith('windows') && arch === 'arm64') continue;
        const imageId = `ami-${input.random.hex(17)}`;
        images.push({
          imageId,
          name: imageName(family, arch, k8s, input.release),
          ownerId: AmazonOwnerId,
          ownerAlias: 'amazon',
          architecture: arch,
          creationDate: input.createdAt,
          state: 'available',
          tags: {},
        });
        const names = ssmNames(family, arch, k8s, input.release);
        parameters[names.pinned] = imageId;
        parameters[names.latest] = imageId;
      }
    }
  }
  return { images, parameters };
}
