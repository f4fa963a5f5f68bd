/** Tenon's release version, as `tenon --version` prints it and `karpenter_build_info` labels it. */
export const tenonVersion = '0.1.0';
