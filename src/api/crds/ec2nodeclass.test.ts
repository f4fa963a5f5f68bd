import { describe, expect, test } from 'vitest';
import { fullEC2NodeClass, minimalEC2NodeClass } from '../fixtures/index.js';
import { validateManifest, withEdits, type Edit } from './test-helpers.js';

/** kube-apiserver's cause when a schema error kept it from evaluating the CEL rules. */
const blocked =
  '<nil>: Invalid value: "null": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation';

const inv = (path: string, type: string, msg: string): string => `${path}: Invalid value: "${type}": ${msg}`;
const spec = (msg: string): string => inv('spec', 'object', msg);

describe('EC2NodeClass: valid manifests', () => {
  test('an EC2NodeClass using every field is accepted unchanged', () => {
    const { object, errors } = validateManifest(fullEC2NodeClass());
    expect(errors).toEqual([]);
    // Only the status defaults of a capacity reservation are added.
    expect(object).toEqual(
      withEdits(
        fullEC2NodeClass(),
        ['status.capacityReservations[0].reservationType', 'default'],
        ['status.capacityReservations[0].state', 'active'],
      ),
    );
  });

  test('metadataOptions default to enabled, IPv6 disabled, hop limit 1, tokens required', () => {
    const { object, errors } = validateManifest(minimalEC2NodeClass());
    expect(errors).toEqual([]);
    expect((object as { spec: { metadataOptions: unknown } }).spec.metadataOptions).toEqual({
      httpEndpoint: 'enabled',
      httpProtocolIPv6: 'disabled',
      httpPutResponseHopLimit: 1,
      httpTokens: 'required',
    });
  });

  test('a partial metadataOptions is completed field by field', () => {
    const { object } = validateManifest(
      withEdits(minimalEC2NodeClass(), ['spec.metadataOptions', { httpTokens: 'optional' }]),
    );
    expect((object as { spec: { metadataOptions: unknown } }).spec.metadataOptions).toEqual({
      httpEndpoint: 'enabled',
      httpProtocolIPv6: 'disabled',
      httpPutResponseHopLimit: 1,
      httpTokens: 'optional',
    });
  });

  test('capacity reservation status defaults reservationType and state', () => {
    const { object } = validateManifest(fullEC2NodeClass());
    const reservation = (object as { status: { capacityReservations: Array<Record<string, unknown>> } }).status
      .capacityReservations[0];
    expect(reservation).toMatchObject({ reservationType: 'default', state: 'active' });
  });

  test('a Custom family with an alias, and a pinned AL2 alias, are accepted', () => {
    expect(validateManifest(withEdits(minimalEC2NodeClass(), ['spec.amiFamily', 'Custom'])).errors).toEqual([]);
    expect(
      validateManifest(withEdits(minimalEC2NodeClass(), ['spec.amiSelectorTerms', [{ alias: 'al2@v20240625' }]]))
        .errors,
    ).toEqual([]);
    expect(
      validateManifest(
        withEdits(
          minimalEC2NodeClass(),
          ['spec.amiFamily', 'AL2'],
          ['spec.amiSelectorTerms', [{ id: 'ami-0123' }, { name: 'my-ami', owner: 'self' }]],
        ),
      ).errors,
    ).toEqual([]);
  });
});

const base = minimalEC2NodeClass;
const amiCases: Array<{ name: string; edits: Edit[]; errors: string[] }> = [
  {
    name: 'amiFamily not supported',
    edits: [['spec.amiFamily', 'Ubuntu']],
    errors: [
      'spec.amiFamily: Unsupported value: "Ubuntu": supported values: "AL2", "AL2023", "Bottlerocket", "Custom", "Windows2019", "Windows2022", "Windows2025"',
      blocked,
    ],
  },
  {
    name: 'no amiSelectorTerms',
    edits: [
      ['spec.amiSelectorTerms', []],
      ['spec.amiFamily', 'AL2023'],
    ],
    errors: ['spec.amiSelectorTerms: Invalid value: 0: spec.amiSelectorTerms in body should have at least 1 items'],
  },
  {
    name: 'an empty AMI term',
    edits: [
      ['spec.amiSelectorTerms', [{}]],
      ['spec.amiFamily', 'AL2023'],
    ],
    errors: [
      inv(
        'spec.amiSelectorTerms',
        'array',
        "expected at least one, got none, ['tags', 'id', 'name', 'alias', 'ssmParameter']",
      ),
    ],
  },
  {
    name: 'AMI id with tags',
    edits: [
      ['spec.amiSelectorTerms', [{ id: 'ami-1', tags: { a: 'b' } }]],
      ['spec.amiFamily', 'AL2023'],
    ],
    errors: [
      inv(
        'spec.amiSelectorTerms',
        'array',
        "'id' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms",
      ),
    ],
  },
  {
    name: 'alias with owner',
    edits: [['spec.amiSelectorTerms', [{ alias: 'al2023@latest', owner: 'self' }]]],
    errors: [
      inv(
        'spec.amiSelectorTerms',
        'array',
        "'alias' is mutually exclusive, cannot be set with a combination of other fields in amiSelectorTerms",
      ),
    ],
  },
  {
    name: 'alias with a second term',
    edits: [['spec.amiSelectorTerms', [{ alias: 'al2023@latest' }, { id: 'ami-1' }]]],
    errors: [
      inv(
        'spec.amiSelectorTerms',
        'array',
        "'alias' is mutually exclusive, cannot be set with a combination of other amiSelectorTerms",
      ),
    ],
  },
  {
    name: 'alias without a version',
    edits: [['spec.amiSelectorTerms', [{ alias: 'al2023' }]]],
    errors: [
      inv(
        'spec.amiSelectorTerms[0].alias',
        'string',
        "'alias' is improperly formatted, must match the format 'family@version'",
      ),
    ],
  },
  {
    name: 'alias of an unknown family',
    edits: [['spec.amiSelectorTerms', [{ alias: 'ubuntu@latest' }]]],
    errors: [
      inv(
        'spec.amiSelectorTerms[0].alias',
        'string',
        "family is not supported, must be one of the following: 'al2', 'al2023', 'bottlerocket', 'windows2019', 'windows2022', 'windows2025'",
      ),
    ],
  },
  {
    name: 'windows alias pinned',
    edits: [['spec.amiSelectorTerms', [{ alias: 'windows2022@v1' }]]],
    errors: [inv('spec.amiSelectorTerms[0].alias', 'string', "windows families may only specify version 'latest'")],
  },
  {
    name: 'alias longer than 30',
    edits: [['spec.amiSelectorTerms', [{ alias: `al2023@${'1'.repeat(25)}` }]]],
    errors: ['spec.amiSelectorTerms[0].alias: Too long: may not be more than 30 bytes', blocked],
  },
  {
    name: 'AMI id malformed',
    edits: [
      ['spec.amiSelectorTerms', [{ id: 'img-123' }]],
      ['spec.amiFamily', 'AL2023'],
    ],
    errors: [
      'spec.amiSelectorTerms[0].id: Invalid value: "img-123": spec.amiSelectorTerms[0].id in body should match \'ami-[0-9a-z]+\'',
    ],
  },
  {
    name: 'AL2 family with an AL2023 alias',
    edits: [['spec.amiFamily', 'AL2']],
    errors: [spec("if set, amiFamily must be 'AL2023' or 'Custom' when using an AL2023 alias")],
  },
  {
    name: 'AL2023 family with an AL2 alias',
    edits: [
      ['spec.amiFamily', 'AL2023'],
      ['spec.amiSelectorTerms', [{ alias: 'al2@latest' }]],
    ],
    errors: [spec("if set, amiFamily must be 'AL2' or 'Custom' when using an AL2 alias")],
  },
  {
    name: 'AL2 family with a Bottlerocket alias',
    edits: [
      ['spec.amiFamily', 'AL2'],
      ['spec.amiSelectorTerms', [{ alias: 'bottlerocket@latest' }]],
    ],
    errors: [spec("if set, amiFamily must be 'Bottlerocket' or 'Custom' when using a Bottlerocket alias")],
  },
  {
    name: 'AL2 family with a Windows2019 alias',
    edits: [
      ['spec.amiFamily', 'AL2'],
      ['spec.amiSelectorTerms', [{ alias: 'windows2019@latest' }]],
    ],
    errors: [spec("if set, amiFamily must be 'Windows2019' or 'Custom' when using a Windows2019 alias")],
  },
  {
    name: 'AL2 family with a Windows2022 alias',
    edits: [
      ['spec.amiFamily', 'AL2'],
      ['spec.amiSelectorTerms', [{ alias: 'windows2022@latest' }]],
    ],
    errors: [spec("if set, amiFamily must be 'Windows2022' or 'Custom' when using a Windows2022 alias")],
  },
  {
    name: 'no alias and no amiFamily',
    edits: [['spec.amiSelectorTerms', [{ id: 'ami-1' }]]],
    errors: [spec('must specify amiFamily if amiSelectorTerms does not contain an alias')],
  },
];

const networkCases: Array<{ name: string; edits: Edit[]; errors: string[] }> = [
  {
    // Upstream's `!self.all(...)` exclusivity rules also fail on an empty list; kept as published.
    name: 'no subnet terms',
    edits: [['spec.subnetSelectorTerms', []]],
    errors: [
      inv('spec.subnetSelectorTerms', 'array', 'subnetSelectorTerms cannot be empty'),
      inv(
        'spec.subnetSelectorTerms',
        'array',
        "'id' is mutually exclusive, cannot be set with a combination of other fields in a subnet selector term",
      ),
    ],
  },
  {
    name: 'an empty subnet term',
    edits: [['spec.subnetSelectorTerms', [{}]]],
    errors: [inv('spec.subnetSelectorTerms', 'array', "expected at least one, got none, ['tags', 'id']")],
  },
  {
    name: 'subnet id with tags',
    edits: [['spec.subnetSelectorTerms', [{ id: 'subnet-1', tags: { a: 'b' } }]]],
    errors: [
      inv(
        'spec.subnetSelectorTerms',
        'array',
        "'id' is mutually exclusive, cannot be set with a combination of other fields in a subnet selector term",
      ),
    ],
  },
  {
    name: 'subnet tag with an empty value',
    edits: [['spec.subnetSelectorTerms', [{ tags: { a: '' } }]]],
    errors: [inv('spec.subnetSelectorTerms[0].tags', 'object', "empty tag keys or values aren't supported")],
  },
  {
    name: 'subnet id malformed',
    edits: [['spec.subnetSelectorTerms', [{ id: 'net-1' }]]],
    errors: [
      'spec.subnetSelectorTerms[0].id: Invalid value: "net-1": spec.subnetSelectorTerms[0].id in body should match \'subnet-[0-9a-z]+\'',
    ],
  },
  {
    name: 'more than 20 selector tags',
    edits: [
      [
        'spec.subnetSelectorTerms',
        [{ tags: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) }],
      ],
    ],
    errors: ['spec.subnetSelectorTerms[0].tags: Too many: 21: must have at most 20 items', blocked],
  },
  {
    name: 'no security group terms',
    edits: [['spec.securityGroupSelectorTerms', []]],
    errors: [
      inv('spec.securityGroupSelectorTerms', 'array', 'securityGroupSelectorTerms cannot be empty'),
      inv(
        'spec.securityGroupSelectorTerms',
        'array',
        "'id' is mutually exclusive, cannot be set with a combination of other fields in a security group selector term",
      ),
      inv(
        'spec.securityGroupSelectorTerms',
        'array',
        "'name' is mutually exclusive, cannot be set with a combination of other fields in a security group selector term",
      ),
    ],
  },
  {
    name: 'an empty security group term',
    edits: [['spec.securityGroupSelectorTerms', [{}]]],
    errors: [
      inv('spec.securityGroupSelectorTerms', 'array', "expected at least one, got none, ['tags', 'id', 'name']"),
    ],
  },
  {
    name: 'security group id with name',
    edits: [['spec.securityGroupSelectorTerms', [{ id: 'sg-1', name: 'x' }]]],
    errors: [
      inv(
        'spec.securityGroupSelectorTerms',
        'array',
        "'id' is mutually exclusive, cannot be set with a combination of other fields in a security group selector term",
      ),
      inv(
        'spec.securityGroupSelectorTerms',
        'array',
        "'name' is mutually exclusive, cannot be set with a combination of other fields in a security group selector term",
      ),
    ],
  },
  {
    name: 'more than 30 security group terms',
    edits: [['spec.securityGroupSelectorTerms', Array.from({ length: 31 }, (_, i) => ({ id: `sg-${i}` }))]],
    errors: ['spec.securityGroupSelectorTerms: Too many: 31: must have at most 30 items', blocked],
  },
  {
    name: 'capacity reservation id malformed',
    edits: [['spec.capacityReservationSelectorTerms', [{ id: 'cr_1' }]]],
    errors: [
      'spec.capacityReservationSelectorTerms[0].id: Invalid value: "cr_1": spec.capacityReservationSelectorTerms[0].id in body should match \'^cr-[0-9a-z]+$\'',
    ],
  },
  {
    name: 'capacity reservation owner not an account id',
    edits: [['spec.capacityReservationSelectorTerms', [{ tags: { a: 'b' }, ownerID: '123' }]]],
    errors: [
      'spec.capacityReservationSelectorTerms[0].ownerID: Invalid value: "123": spec.capacityReservationSelectorTerms[0].ownerID in body should match \'^[0-9]{12}$\'',
    ],
  },
  {
    name: 'an empty capacity reservation term',
    edits: [['spec.capacityReservationSelectorTerms', [{}]]],
    errors: [
      inv(
        'spec.capacityReservationSelectorTerms',
        'array',
        "expected at least one, got none, ['tags', 'id', 'instanceMatchCriteria']",
      ),
    ],
  },
  {
    name: 'capacity reservation id with tags',
    edits: [['spec.capacityReservationSelectorTerms', [{ id: 'cr-1', tags: { a: 'b' } }]]],
    errors: [
      inv(
        'spec.capacityReservationSelectorTerms',
        'array',
        "'id' is mutually exclusive, cannot be set along with other fields in a capacity reservation selector term",
      ),
    ],
  },
  {
    name: 'capacity reservation id with instanceMatchCriteria',
    edits: [['spec.capacityReservationSelectorTerms', [{ id: 'cr-1', instanceMatchCriteria: 'open' }]]],
    errors: [
      inv(
        'spec.capacityReservationSelectorTerms',
        'array',
        "'id' is mutually exclusive, cannot be set along with other fields in a capacity reservation selector term",
      ),
    ],
  },
  {
    name: 'capacity reservation instanceMatchCriteria not supported',
    edits: [['spec.capacityReservationSelectorTerms', [{ instanceMatchCriteria: 'any' }]]],
    errors: [
      'spec.capacityReservationSelectorTerms[0].instanceMatchCriteria: Unsupported value: "any": supported values: "open", "targeted"',
      blocked,
    ],
  },
  {
    name: 'network interfaces without a primary interface',
    edits: [['spec.networkInterfaces', [{ networkCardIndex: 0, deviceIndex: 1, interfaceType: 'efa-only' }]]],
    errors: [
      inv(
        'spec.networkInterfaces',
        'array',
        "networkInterfaces must include a primary interface with interfaceType='interface'",
      ),
    ],
  },
  {
    name: 'two EFA devices on one network card',
    edits: [
      [
        'spec.networkInterfaces',
        [
          { networkCardIndex: 0, deviceIndex: 0, interfaceType: 'interface' },
          { networkCardIndex: 1, deviceIndex: 0, interfaceType: 'efa-only' },
          { networkCardIndex: 1, deviceIndex: 1, interfaceType: 'efa-only' },
        ],
      ],
    ],
    errors: [
      inv(
        'spec.networkInterfaces',
        'array',
        'networkInterfaces must not have duplicate networkCardIndex and deviceIndex pairs, and can have at most one efa device per network card',
      ),
    ],
  },
  {
    name: 'placement group by name and id',
    edits: [['spec.placementGroupSelector', { name: 'pg', id: 'pg-0123' }]],
    errors: [inv('spec.placementGroupSelector', 'object', "'name' and 'id' are mutually exclusive")],
  },
  {
    name: 'placement group selector empty',
    edits: [['spec.placementGroupSelector', {}]],
    errors: [inv('spec.placementGroupSelector', 'object', "expected at least one, got none, ['name', 'id']")],
  },
  {
    name: 'connection tracking empty',
    edits: [['spec.connectionTracking', {}]],
    errors: [
      inv(
        'spec.connectionTracking',
        'object',
        'at least one of tcpEstablishedTimeout, udpStreamTimeout, or udpTimeout must be set',
      ),
    ],
  },
  {
    name: 'udpTimeout above 60',
    edits: [['spec.connectionTracking', { udpTimeout: 61 }]],
    errors: [
      'spec.connectionTracking.udpTimeout: Invalid value: 61: spec.connectionTracking.udpTimeout in body should be less than or equal to 60',
    ],
  },
  {
    name: 'nested virtualization not supported',
    edits: [['spec.cpuOptions', { nestedVirtualization: 'on' }]],
    errors: [
      'spec.cpuOptions.nestedVirtualization: Unsupported value: "on": supported values: "enabled", "disabled"',
      blocked,
    ],
  },
  {
    name: 'enclaveOptions without enabled',
    edits: [['spec.enclaveOptions', {}]],
    errors: ['spec.enclaveOptions.enabled: Required value', blocked],
  },
  {
    name: 'negative ipPrefixCount',
    edits: [['spec.ipPrefixCount', -1]],
    errors: ['spec.ipPrefixCount: Invalid value: -1: spec.ipPrefixCount in body should be greater than or equal to 0'],
  },
];

const identityCases: Array<{ name: string; edits: Edit[]; errors: string[] }> = [
  {
    name: 'role and instanceProfile',
    edits: [['spec.instanceProfile', 'p']],
    errors: [spec("must specify exactly one of ['role', 'instanceProfile']")],
  },
  {
    name: 'neither role nor instanceProfile',
    edits: [['spec.role', undefined]],
    errors: [spec("must specify exactly one of ['role', 'instanceProfile']")],
  },
  { name: 'empty role', edits: [['spec.role', '']], errors: [inv('spec.role', 'string', 'role cannot be empty')] },
  {
    name: 'empty instanceProfile',
    edits: [
      ['spec.role', undefined],
      ['spec.instanceProfile', ''],
    ],
    errors: [inv('spec.instanceProfile', 'string', 'instanceProfile cannot be empty')],
  },
  {
    name: 'restricted tag eks:eks-cluster-name',
    edits: [['spec.tags', { 'eks:eks-cluster-name': 'x' }]],
    errors: [inv('spec.tags', 'object', 'tag contains a restricted tag matching eks:eks-cluster-name')],
  },
  {
    name: 'restricted tag kubernetes.io/cluster',
    edits: [['spec.tags', { 'kubernetes.io/cluster/demo': 'owned' }]],
    errors: [inv('spec.tags', 'object', 'tag contains a restricted tag matching kubernetes.io/cluster/')],
  },
  {
    name: 'restricted tag karpenter.sh/nodepool',
    edits: [['spec.tags', { 'karpenter.sh/nodepool': 'x' }]],
    errors: [inv('spec.tags', 'object', 'tag contains a restricted tag matching karpenter.sh/nodepool')],
  },
  {
    name: 'restricted tag karpenter.sh/nodeclaim',
    edits: [['spec.tags', { 'karpenter.sh/nodeclaim': 'x' }]],
    errors: [inv('spec.tags', 'object', 'tag contains a restricted tag matching karpenter.sh/nodeclaim')],
  },
  {
    name: 'restricted tag karpenter.k8s.aws/ec2nodeclass',
    edits: [['spec.tags', { 'karpenter.k8s.aws/ec2nodeclass': 'x' }]],
    errors: [inv('spec.tags', 'object', 'tag contains a restricted tag matching karpenter.k8s.aws/ec2nodeclass')],
  },
  {
    name: 'empty tag key',
    edits: [['spec.tags', { '': 'x' }]],
    errors: [inv('spec.tags', 'object', "empty tag keys aren't supported")],
  },
  {
    name: 'instanceStorePolicy not supported',
    edits: [['spec.instanceStorePolicy', 'RAID1']],
    errors: ['spec.instanceStorePolicy: Unsupported value: "RAID1": supported values: "RAID0"', blocked],
  },
  {
    name: 'httpTokens not supported',
    edits: [['spec.metadataOptions', { httpTokens: 'maybe' }]],
    errors: [
      'spec.metadataOptions.httpTokens: Unsupported value: "maybe": supported values: "required", "optional"',
      blocked,
    ],
  },
  {
    name: 'hop limit above 64',
    edits: [['spec.metadataOptions', { httpPutResponseHopLimit: 65 }]],
    errors: [
      'spec.metadataOptions.httpPutResponseHopLimit: Invalid value: 65: spec.metadataOptions.httpPutResponseHopLimit in body should be less than or equal to 64',
    ],
  },
  {
    name: 'httpEndpoint not supported',
    edits: [['spec.metadataOptions', { httpEndpoint: 'on' }]],
    errors: [
      'spec.metadataOptions.httpEndpoint: Unsupported value: "on": supported values: "enabled", "disabled"',
      blocked,
    ],
  },
];

const kubeletAndDisks: Array<{ name: string; edits: Edit[]; errors: string[] }> = [
  {
    name: 'two root volumes',
    edits: [
      [
        'spec.blockDeviceMappings',
        [
          { rootVolume: true, ebs: { volumeSize: '20Gi' } },
          { rootVolume: true, ebs: { volumeSize: '20Gi' } },
        ],
      ],
    ],
    errors: [inv('spec.blockDeviceMappings', 'array', 'must have only one blockDeviceMappings with rootVolume')],
  },
  {
    name: 'EBS volume without size or snapshot',
    edits: [['spec.blockDeviceMappings', [{ ebs: { volumeType: 'gp3' } }]]],
    errors: [inv('spec.blockDeviceMappings[0].ebs', 'object', 'snapshotID or volumeSize must be defined')],
  },
  {
    name: 'initialization rate without snapshot',
    edits: [['spec.blockDeviceMappings', [{ ebs: { volumeSize: '20Gi', volumeInitializationRate: 150 } }]]],
    errors: [
      inv('spec.blockDeviceMappings[0].ebs', 'object', 'snapshotID must be set when volumeInitializationRate is set'),
    ],
  },
  {
    name: 'initialization rate below 100',
    edits: [['spec.blockDeviceMappings', [{ ebs: { snapshotID: 'snap-1', volumeInitializationRate: 99 } }]]],
    errors: [
      'spec.blockDeviceMappings[0].ebs.volumeInitializationRate: Invalid value: 99: spec.blockDeviceMappings[0].ebs.volumeInitializationRate in body should be greater than or equal to 100',
    ],
  },
  {
    name: 'volume type not supported',
    edits: [['spec.blockDeviceMappings', [{ ebs: { volumeSize: '20Gi', volumeType: 'gp4' } }]]],
    errors: [
      'spec.blockDeviceMappings[0].ebs.volumeType: Unsupported value: "gp4": supported values: "standard", "io1", "io2", "gp2", "sc1", "st1", "gp3"',
      blocked,
    ],
  },
  {
    name: 'volume size without a unit',
    edits: [['spec.blockDeviceMappings', [{ ebs: { volumeSize: '100' } }]]],
    errors: [
      `spec.blockDeviceMappings[0].ebs.volumeSize: Invalid value: "100": spec.blockDeviceMappings[0].ebs.volumeSize in body should match '^((?:[1-9][0-9]{0,3}|[1-4][0-9]{4}|[5][0-8][0-9]{3}|59000)Gi|(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|[6][0-3][0-9]{3}|64000)G|([1-9]||[1-5][0-7]|58)Ti|([1-9]||[1-5][0-9]|6[0-3]|64)T)$'`,
    ],
  },
];

describe.each([
  ['AMIs', amiCases],
  ['subnets, security groups and reservations', networkCases],
  ['identity, tags and metadata options', identityCases],
  ['kubelet and block devices', kubeletAndDisks],
])('EC2NodeClass: invalid %s', (_group, cases) => {
  test.each(cases)('$name', ({ edits, errors }) => {
    expect(validateManifest(withEdits(base(), ...edits)).errors.map((e) => e.message)).toEqual(errors);
  });
});

describe('EC2NodeClass: transition rules on update', () => {
  test('the role may change (Karpenter v1.15 drifts the nodes instead of refusing)', () => {
    expect(validateManifest(withEdits(base(), ['spec.role', 'other']), base()).errors).toEqual([]);
  });

  test('keeping the role passes', () => {
    expect(validateManifest(withEdits(base(), ['spec.userData', 'x']), base()).errors).toEqual([]);
  });
});
