/** The name and Kubernetes version of a playground's cluster unless told otherwise (light: the CLI imports it). */
import { defaultKubernetesVersion } from '../machines/kubernetes-version.js';

/** The playground's cluster name unless told otherwise (its subnets, security groups and role are named for it). */
export const playgroundCluster = 'playground';

/** The Kubernetes minor version a playground runs unless told otherwise (API server, AMIs, kubelets). */
export const playgroundKubernetesVersion = defaultKubernetesVersion;
