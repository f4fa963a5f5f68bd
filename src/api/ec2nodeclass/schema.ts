import { Type, type Static } from '@sinclair/typebox';
import { Int, Str, StringEnum, StringMap, rule } from '../schema/builders.js';
import { TypeMetaFields } from '../shared/object-meta.js';
import { BlockDeviceMappingsSchema, MetadataOptionsSchema } from './block-devices.js';
import { KubeletPassThroughSchema } from './kubelet.js';
import {
  CPUOptionsSchema,
  ConnectionTrackingSchema,
  EnclaveOptionsSchema,
  NetworkInterfacesSchema,
  PlacementGroupSelectorSchema,
} from './network.js';
import {
  AMISelectorTermsSchema,
  CapacityReservationSelectorTermsSchema,
  SecurityGroupSelectorTermsSchema,
  SubnetSelectorTermsSchema,
} from './selector-terms.js';
import { EC2NodeClassStatusSchema } from './status.js';

/** AMI families. */
export const AMIFamilies = [
  'AL2',
  'AL2023',
  'Bottlerocket',
  'Custom',
  'Windows2019',
  'Windows2022',
  'Windows2025',
] as const;

const restrictedTags = [
  rule("self.all(k, k != '')", "empty tag keys aren't supported"),
  rule("self.all(k, k !='eks:eks-cluster-name')", 'tag contains a restricted tag matching eks:eks-cluster-name'),
  rule(
    "self.all(k, !k.startsWith('kubernetes.io/cluster') )",
    'tag contains a restricted tag matching kubernetes.io/cluster/',
  ),
  rule("self.all(k, k != 'karpenter.sh/nodepool')", 'tag contains a restricted tag matching karpenter.sh/nodepool'),
  rule("self.all(k, k !='karpenter.sh/nodeclaim')", 'tag contains a restricted tag matching karpenter.sh/nodeclaim'),
  rule(
    "self.all(k, k !='karpenter.k8s.aws/ec2nodeclass')",
    'tag contains a restricted tag matching karpenter.k8s.aws/ec2nodeclass',
  ),
];

function aliasFamilyRule(alias: string, family: string, article: string): ReturnType<typeof rule> {
  return rule(
    `!has(self.amiFamily) || (self.amiSelectorTerms.exists(x, has(x.alias) && x.alias.find('^[^@]+') == '${alias}') ? (self.amiFamily == 'Custom' || self.amiFamily == '${family}') : true)`,
    `if set, amiFamily must be '${family}' or 'Custom' when using ${article} ${family} alias`,
  );
}

/** `spec` of an EC2NodeClass. */
export const EC2NodeClassSpecSchema = Type.Object(
  {
    amiFamily: Type.Optional(StringEnum(AMIFamilies)),
    amiSelectorTerms: AMISelectorTermsSchema,
    associatePublicIPAddress: Type.Optional(Type.Boolean()),
    blockDeviceMappings: Type.Optional(BlockDeviceMappingsSchema),
    capacityReservationSelectorTerms: Type.Optional(CapacityReservationSelectorTermsSchema),
    connectionTracking: Type.Optional(ConnectionTrackingSchema),
    context: Type.Optional(Type.String()),
    cpuOptions: Type.Optional(CPUOptionsSchema),
    detailedMonitoring: Type.Optional(Type.Boolean()),
    enclaveOptions: Type.Optional(EnclaveOptionsSchema),
    instanceProfile: Type.Optional(
      Str({ 'x-kubernetes-validations': [rule("self != ''", 'instanceProfile cannot be empty')] }),
    ),
    instanceStorePolicy: Type.Optional(StringEnum(['RAID0'] as const)),
    ipPrefixCount: Type.Optional(Int({ format: 'int32', minimum: 0 })),
    kubelet: Type.Optional(KubeletPassThroughSchema),
    metadataOptions: Type.Optional(MetadataOptionsSchema),
    networkInterfaces: Type.Optional(NetworkInterfacesSchema),
    placementGroupSelector: Type.Optional(PlacementGroupSelectorSchema),
    role: Type.Optional(Str({ 'x-kubernetes-validations': [rule("self != ''", 'role cannot be empty')] })),
    securityGroupSelectorTerms: SecurityGroupSelectorTermsSchema,
    subnetSelectorTerms: SubnetSelectorTermsSchema,
    tags: Type.Optional(StringMap({ 'x-kubernetes-validations': restrictedTags })),
    userData: Type.Optional(Type.String()),
  },
  {
    'x-kubernetes-validations': [
      rule(
        '(has(self.role) && !has(self.instanceProfile)) || (!has(self.role) && has(self.instanceProfile))',
        "must specify exactly one of ['role', 'instanceProfile']",
      ),
      aliasFamilyRule('al2', 'AL2', 'an'),
      aliasFamilyRule('al2023', 'AL2023', 'an'),
      aliasFamilyRule('bottlerocket', 'Bottlerocket', 'a'),
      aliasFamilyRule('windows2019', 'Windows2019', 'a'),
      aliasFamilyRule('windows2022', 'Windows2022', 'a'),
      aliasFamilyRule('windows2025', 'Windows2025', 'a'),
      rule(
        'self.amiSelectorTerms.exists(x, has(x.alias)) ? true : has(self.amiFamily)',
        'must specify amiFamily if amiSelectorTerms does not contain an alias',
      ),
    ],
  },
);

/** karpenter.k8s.aws/v1 EC2NodeClass. */
export const EC2NodeClassSchema = Type.Object({
  ...TypeMetaFields,
  spec: Type.Optional(EC2NodeClassSpecSchema),
  status: Type.Optional(EC2NodeClassStatusSchema),
});

/** A karpenter.k8s.aws/v1 EC2NodeClass. */
export type EC2NodeClass = Static<typeof EC2NodeClassSchema>;
/** An EC2NodeClass spec. */
export type EC2NodeClassSpec = Static<typeof EC2NodeClassSpecSchema>;
/** One AMI family. */
export type AMIFamily = (typeof AMIFamilies)[number];
