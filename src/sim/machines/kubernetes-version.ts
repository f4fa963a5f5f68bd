/**
 * The one Kubernetes version of a simulated cluster, in the forms each component reports it: the API server's
 * `/version`, the AMIs published for it, and the kubelet version an EKS-optimized image of that version runs.
 */

/** The Kubernetes minor version of a simulated cluster unless told otherwise. */
export const defaultKubernetesVersion = '1.33';

/** The EKS AMI versions the simulated account always publishes (a cluster's own version is added). */
const publishedVersions = ['1.30', '1.31', '1.32', '1.33', '1.34'];

/** Why `minor` is not a Kubernetes minor version (`1.33`), or undefined when it is one. */
export function kubernetesVersionProblem(minor: string): string | undefined {
  return /^1\.\d{2}$/.test(minor) ? undefined : `must be a Kubernetes minor version such as 1.33, got "${minor}"`;
}

/** What the API server's /version reports for a cluster of this minor version. */
export function apiServerVersion(minor: string): string {
  return `v${minor}.1`;
}

/** The Kubernetes versions the simulated account publishes AMIs for: the usual ones and the cluster's. */
export function amiKubernetesVersions(minor: string): string[] {
  return publishedVersions.includes(minor) ? publishedVersions : [...publishedVersions, minor].sort();
}

/** The Kubernetes minor version an EKS-optimized image name carries (`...-standard-1.33-v20250501` → 1.33). */
export function kubernetesVersionOfImage(name: string | undefined): string | undefined {
  return name?.match(/(?:^|[-_])(1\.\d{2})(?:-|$)/)?.[1];
}

/** The kubelet version an image of this Kubernetes minor version reports (EKS: `v1.33.1-eks-<build>`). */
export function kubeletVersion(minor: string | undefined): string | undefined {
  return minor === undefined ? undefined : `${apiServerVersion(minor)}-eks-sim`;
}
