/**
 * The bootstrap library: userData generation per AMI family (the AWS provider), the kubelet's real view of
 * userData (the simulated kubelet) and lint (`tenon lint`, the EC2NodeClass UserDataValid condition).
 * Pure: no I/O, no clock.
 */
export type {
  AmiFamily,
  ClusterInfo,
  UserDataInput,
  KubeletSettings,
  EffectiveKubeletConfig,
  NodeFacts,
  LintFinding,
  EC2NodeClassLike,
  NodePoolLike,
} from './types.js';
export { generateUserData, tryGenerateUserData, type GenerateResult } from './generate.js';
export { effectiveKubeletConfig, detectKind, type BootstrapKind } from './effective.js';
export { lint } from './lint.js';
export { LintCodes } from './lint-finding.js';
export { familyOf } from './family.js';
export { InvalidUserDataError, RegistrationTaint, requiredTaints } from './required.js';
export { parseTaint, parseTaintList, formatTaint, unionTaints } from './taint-strings.js';
export { parseBootstrapArgs, BootstrapValueOptions } from './bootstrap-sh.js';
export { mergeNodeConfigs } from './nodeconfig.js';
export { parseMime, serializeMime } from './mime.js';
