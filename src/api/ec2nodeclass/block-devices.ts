import { Type, type Static } from '@sinclair/typebox';
import { Int, Str, StringEnum, rule } from '../schema/builders.js';

/** EBS volume types. */
export const VolumeTypes = ['standard', 'io1', 'io2', 'gp2', 'sc1', 'st1', 'gp3'] as const;

/** `blockDeviceMappings[].ebs`. */
export const BlockDeviceSchema = Type.Object(
  {
    deleteOnTermination: Type.Optional(Type.Boolean()),
    encrypted: Type.Optional(Type.Boolean()),
    iops: Type.Optional(Int({ format: 'int64' })),
    kmsKeyID: Type.Optional(Type.String()),
    snapshotID: Type.Optional(Type.String()),
    throughput: Type.Optional(Int({ format: 'int64' })),
    volumeInitializationRate: Type.Optional(Int({ format: 'int32', minimum: 100, maximum: 300 })),
    volumeSize: Type.Optional(
      Str({
        pattern:
          '^((?:[1-9][0-9]{0,3}|[1-4][0-9]{4}|[5][0-8][0-9]{3}|59000)Gi|(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|[6][0-3][0-9]{3}|64000)G|([1-9]||[1-5][0-7]|58)Ti|([1-9]||[1-5][0-9]|6[0-3]|64)T)$',
      }),
    ),
    volumeType: Type.Optional(StringEnum(VolumeTypes)),
  },
  {
    'x-kubernetes-validations': [
      rule('has(self.snapshotID) || has(self.volumeSize)', 'snapshotID or volumeSize must be defined'),
      rule(
        "!has(self.volumeInitializationRate) || (has(self.snapshotID) && self.snapshotID != '')",
        'snapshotID must be set when volumeInitializationRate is set',
      ),
    ],
  },
);

/** One block device mapping. */
export const BlockDeviceMappingSchema = Type.Object({
  deviceName: Type.Optional(Type.String()),
  ebs: Type.Optional(BlockDeviceSchema),
  rootVolume: Type.Optional(Type.Boolean()),
});

/** `spec.blockDeviceMappings`. */
export const BlockDeviceMappingsSchema = Type.Array(BlockDeviceMappingSchema, {
  maxItems: 50,
  'x-kubernetes-validations': [
    rule(
      'self.filter(x, has(x.rootVolume)?x.rootVolume==true:false).size() <= 1',
      'must have only one blockDeviceMappings with rootVolume',
    ),
  ],
});

/** `spec.metadataOptions`, defaulted as a whole and field by field. */
export const MetadataOptionsSchema = Type.Object(
  {
    httpEndpoint: Type.Optional(StringEnum(['enabled', 'disabled'] as const, { default: 'enabled' })),
    httpProtocolIPv6: Type.Optional(StringEnum(['enabled', 'disabled'] as const, { default: 'disabled' })),
    httpPutResponseHopLimit: Type.Optional(Int({ default: 1, format: 'int64', minimum: 1, maximum: 64 })),
    httpTokens: Type.Optional(StringEnum(['required', 'optional'] as const, { default: 'required' })),
  },
  {
    default: {
      httpEndpoint: 'enabled',
      httpProtocolIPv6: 'disabled',
      httpPutResponseHopLimit: 1,
      httpTokens: 'required',
    },
  },
);

/** One block device mapping. */
export type BlockDeviceMapping = Static<typeof BlockDeviceMappingSchema>;
/** Instance metadata service options. */
export type MetadataOptions = Static<typeof MetadataOptionsSchema>;
